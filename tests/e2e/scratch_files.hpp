// Files for tests of what smsim writes: a fresh directory, its listing, a file's text, one
// leaf of a stats JSON file.
#pragma once

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <dirent.h>

#include "smsim_run.hpp"

extern "C" {
#include "smtlm/json_flat.h"
}

namespace e2e {

// An empty scratch directory of the test's own.
inline std::string fresh_dir(const std::string &name)
{
    const std::string dir = scratch(name);
    const std::string cmd = "rm -rf '" + dir + "' && mkdir -p '" + dir + "'";
    return std::system(cmd.c_str()) == 0 ? dir : "";
}

// The names in dir, sorted.
inline std::vector<std::string> listing(const std::string &dir)
{
    std::vector<std::string> names;
    if (DIR *d = opendir(dir.c_str())) {
        while (dirent *e = readdir(d))
            if (std::string(e->d_name) != "." && std::string(e->d_name) != "..")
                names.push_back(e->d_name);
        closedir(d);
    }
    std::sort(names.begin(), names.end());
    return names;
}

inline std::string read(const std::string &path)
{
    std::ifstream f(path, std::ios::binary);
    std::stringstream s;
    s << f.rdbuf();
    return s.str();
}

// One leaf of a stats JSON file by its path ("complete", "kernels[0].gpu_sim_cycle"), as
// written; "<none>" when there is none, "<unreadable: why>" for a file that does not parse.
inline std::string json_leaf(const std::string &file, const std::string &path)
{
    smtlm_json_flat flat;
    char msg[512];
    if (smtlm_json_flatten_file(file.c_str(), &flat, msg, sizeof msg))
        return std::string("<unreadable: ") + msg + ">";
    std::string v = "<none>";
    for (size_t i = 0; i < flat.n; i++)
        if (path == flat.leaf[i].path)
            v = flat.leaf[i].text;
    smtlm_json_flat_free(&flat);
    return v;
}

} // namespace e2e
