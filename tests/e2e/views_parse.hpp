// Readers for the files the end-to-end tests check: smsim's event log, a Kanata log (checked
// against the format's rules while it is read) and a VCD.
#pragma once

#include <cstdint>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace views {

inline std::string slurp(const std::string &path)
{
    std::ifstream f(path);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

// One line of -smtlm_event_log.
struct Event {
    unsigned kernel, sm, warp, pc;
    uint64_t uid, ev[6]; // issue cu_alloc operands oc_ex fu_issue writeback
};

inline std::vector<Event> read_events(const std::string &path)
{
    std::vector<Event> v;
    std::istringstream in(slurp(path));
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#')
            continue;
        Event e;
        std::istringstream l(line);
        std::string pc;
        l >> e.kernel >> e.sm >> e.warp >> pc >> e.uid;
        for (uint64_t &c : e.ev)
            l >> c;
        e.pc = (unsigned)std::stoul(pc, nullptr, 16);
        v.push_back(e);
    }
    return v;
}

struct KStage {
    std::string name, label;
    unsigned lane;
    uint64_t start, end;
    bool ended;
};

struct KInst {
    uint64_t id, sim_id, rid = 0;
    unsigned thread;
    uint64_t start, retire = 0;
    bool retired = false;
    std::string name, detail;
    std::vector<KStage> stages;
    std::vector<uint64_t> producers;
};

// A Kanata log read back. `error` names the first rule broken (empty: none): the header, C=
// first, cycles that only go forward, I ids 0, 1, 2, ... in order, commands only for started
// and not yet retired instructions, E for an open stage of that lane, W naming a started
// producer, retire ids 0, 1, 2, ... in order, every instruction retired at the end.
struct Kanata {
    std::vector<KInst> inst;
    std::string error;

    const KStage *stage(const KInst &i, const std::string &name, unsigned lane = 0) const
    {
        for (const KStage &s : i.stages)
            if (s.name == name && s.lane == lane)
                return &s;
        return nullptr;
    }
};

inline std::vector<std::string> split_tabs(const std::string &line)
{
    std::vector<std::string> f;
    size_t p = 0;
    for (;;) {
        size_t t = line.find('\t', p);
        f.push_back(line.substr(p, t == std::string::npos ? std::string::npos : t - p));
        if (t == std::string::npos)
            return f;
        p = t + 1;
    }
}

inline Kanata read_kanata(const std::string &text)
{
    Kanata k;
    std::istringstream in(text);
    std::string line;
    uint64_t cycle = 0, next_rid = 0;
    bool has_cycle = false;
    unsigned n = 0;
    auto fail = [&](const std::string &why) {
        if (k.error.empty())
            k.error = "line " + std::to_string(n) + ": " + why + ": " + line;
    };
    while (std::getline(in, line)) {
        n++;
        const std::vector<std::string> f = split_tabs(line);
        if (n == 1) {
            if (line != "Kanata\t0004")
                fail("not the header");
            continue;
        }
        const std::string &c = f[0];
        if (c == "C=") {
            if (has_cycle || f.size() != 2)
                fail("C= not first");
            cycle = std::stoull(f[1]);
            has_cycle = true;
            continue;
        }
        if (!has_cycle)
            fail("a command before C=");
        if (c == "C") {
            if (f.size() != 2 || std::stoull(f[1]) == 0)
                fail("C needs a positive count");
            cycle += std::stoull(f[1]);
            continue;
        }
        if (f.size() != 4) {
            fail("not four fields");
            continue;
        }
        const uint64_t id = std::stoull(f[1]);
        if (c == "I") {
            if (id != k.inst.size())
                fail("I ids out of order");
            KInst i;
            i.id = id;
            i.sim_id = std::stoull(f[2]);
            i.thread = (unsigned)std::stoul(f[3]);
            i.start = cycle;
            k.inst.push_back(i);
            continue;
        }
        if (id >= k.inst.size() || k.inst[id].retired) {
            fail("a command for an instruction not alive");
            continue;
        }
        KInst &i = k.inst[id];
        if (c == "L") {
            if (f[2] == "0")
                i.name += f[3];
            else if (f[2] == "1")
                i.detail += f[3];
            else if (f[2] == "2" && !i.stages.empty())
                i.stages.back().label += f[3];
            else
                fail("a label of an unknown kind");
        } else if (c == "S") {
            i.stages.push_back({f[3], "", (unsigned)std::stoul(f[2]), cycle, 0, false});
        } else if (c == "E") {
            bool found = false;
            for (size_t s = i.stages.size(); s-- > 0 && !found;)
                if (i.stages[s].name == f[3] && i.stages[s].lane == std::stoul(f[2]) && !i.stages[s].ended) {
                    i.stages[s].end = cycle;
                    i.stages[s].ended = found = true;
                }
            if (!found)
                fail("E for no open stage");
        } else if (c == "W") {
            const uint64_t p = std::stoull(f[2]);
            if (p >= k.inst.size() || f[3] != "0")
                fail("W for an unknown producer");
            i.producers.push_back(p);
        } else if (c == "R") {
            if (std::stoull(f[2]) != next_rid++ || f[3] != "0")
                fail("retire ids out of order");
            i.retired = true;
            i.retire = cycle;
            for (const KStage &s : i.stages)
                if (!s.ended)
                    fail("a stage open at retirement");
        } else {
            fail("an unknown command");
        }
    }
    for (const KInst &i : k.inst)
        if (!i.retired)
            fail("an instruction never retired");
    return k;
}

// A VCD read back: each variable's changes, by its dotted scope path ("sm0.bank3.rd").
struct Vcd {
    std::map<std::string, std::vector<std::pair<uint64_t, uint64_t>>> changes;
    std::vector<uint64_t> times;
    std::string error;

    bool has(const std::string &name) const { return changes.count(name) != 0; }
    // The value at time t (the last change at or before it).
    uint64_t at(const std::string &name, uint64_t t) const
    {
        auto it = changes.find(name);
        uint64_t v = 0;
        if (it == changes.end())
            return v;
        for (const auto &c : it->second) {
            if (c.first > t)
                break;
            v = c.second;
        }
        return v;
    }
};

inline Vcd read_vcd(const std::string &text)
{
    Vcd v;
    std::map<std::string, std::string> name_of;
    std::vector<std::string> scope;
    std::istringstream in(text);
    std::string line;
    uint64_t t = 0;
    bool defs = true;
    while (std::getline(in, line)) {
        std::istringstream l(line);
        std::string w;
        l >> w;
        if (defs) {
            if (w == "$scope") {
                std::string kind, name;
                l >> kind >> name;
                scope.push_back(name);
            } else if (w == "$upscope") {
                scope.pop_back();
            } else if (w == "$var") {
                std::string type, width, id, name;
                l >> type >> width >> id >> name;
                std::string path;
                for (const std::string &s : scope)
                    path += s + ".";
                name_of[id] = path + name;
                v.changes[path + name];
            } else if (w == "$enddefinitions") {
                defs = false;
            }
            continue;
        }
        if (line.empty() || line == "$dumpvars" || line == "$end")
            continue;
        if (line[0] == '#') {
            const uint64_t nt = std::stoull(line.substr(1));
            if (!v.times.empty() && nt <= t && v.error.empty())
                v.error = "time going back at " + line;
            t = nt;
            v.times.push_back(t);
            continue;
        }
        std::string id;
        uint64_t value;
        if (line[0] == 'b') {
            const size_t sp = line.find(' ');
            value = std::stoull(line.substr(1, sp - 1), nullptr, 2);
            id = line.substr(sp + 1);
        } else {
            value = (uint64_t)(line[0] - '0');
            id = line.substr(1);
        }
        if (!name_of.count(id)) {
            if (v.error.empty())
                v.error = "unknown identifier in " + line;
            continue;
        }
        v.changes[name_of[id]].push_back({t, value});
    }
    return v;
}

} // namespace views
