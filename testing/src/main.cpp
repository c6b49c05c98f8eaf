// smtlm::testing_main: the entry of a regression test binary. libsystemc's main() calls
// sc_main; ours calls it too, after turning SystemC's banner off (SC_COPYRIGHT_MESSAGE set by
// the user still decides), so test listings and output stay clean.
#include <cstdlib>

#include <gmock/gmock.h>
#include <systemc>

#include "smtlm/testing/golden.h"

int sc_main(int argc, char *argv[])
{
    ::testing::InitGoogleMock(&argc, argv);
    smtlm::testing::init(&argc, argv);
    return RUN_ALL_TESTS();
}

int main(int argc, char *argv[])
{
    setenv("SC_COPYRIGHT_MESSAGE", "DISABLE", 0);
    return sc_core::sc_elab_and_sim(argc, argv);
}
