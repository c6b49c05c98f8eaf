// The whole text written to a temporary FILE (closes it): what a writer under test produced.
#pragma once

#include <cstdio>
#include <string>

inline std::string file_text(FILE *f)
{
    std::string s;
    std::rewind(f);
    char buf[4096];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0)
        s.append(buf, n);
    std::fclose(f);
    return s;
}
