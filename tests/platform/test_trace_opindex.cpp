// The trace reader's opcode hash table (platform/lib/src/trace_opindex.c) against the maps' own
// binary search, for every name of every map and for near misses (one byte more, one less, a
// changed byte, names longer than the 8-byte key), which must find the same entry or none.
#include <gtest/gtest.h>

#include <string>

extern "C" {
#include "trace_internal.h"
}

namespace {

TEST(TraceOpindex, AgreesWithTheBinarySearchOnEveryNameAndNearMiss)
{
    static trace_opindex ix; // 12 KB: not on the stack
    for (const smtlm_opcode_map *map : {&smtlm_opcode_map_pascal, &smtlm_opcode_map_volta, &smtlm_opcode_map_turing,
                                        &smtlm_opcode_map_ampere, &smtlm_opcode_map_hopper}) {
        SCOPED_TRACE(map->arch);
        trace_opindex_build(&ix, map);
        ASSERT_EQ(ix.map, map) << "the map fits the table";
        unsigned long_names = 0;
        for (size_t j = 0; j < map->n; j++) {
            const std::string name = map->ops[j].name;
            long_names += name.size() > 8;
            EXPECT_EQ(trace_opindex_find(&ix, map, name.data(), name.size()), &map->ops[j]) << name;
            for (const std::string &probe : {name + "X", name.substr(0, name.size() - 1), "Z" + name.substr(1),
                                             name.substr(0, name.size() - 1) + "#", name + name}) {
                EXPECT_EQ(trace_opindex_find(&ix, map, probe.data(), probe.size()),
                          smtlm_opcode_find(map, probe.data(), probe.size()))
                    << probe;
            }
        }
        EXPECT_GT(long_names, 0u) << "names past the 8-byte key are covered";
        EXPECT_EQ(trace_opindex_find(&ix, map, "", 0), nullptr);
    }
}

} // namespace
