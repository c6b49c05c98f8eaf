#include "smtlm/tlm/gpu_config.h"

#include <cctype>
#include <cerrno>
#include <climits>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <ostream>

extern "C" {
#include "smtlm/engine_config.h"
#include "smtlm/trace_source.h"
}

namespace smtlm {

namespace {

using OptionsPtr = std::unique_ptr<smtlm_options, void (*)(smtlm_options *)>;

OptionsPtr new_options() { return OptionsPtr(smtlm_options_new(), smtlm_options_free); }

std::string origin_of(const smtlm_options &opts, const char *name)
{
    char where[PATH_MAX + 32] = "<default>"; // a config file's path and line
    smtlm_options_origin(&opts, name, where, sizeof where);
    return where;
}

// smsim's own options: what to run and where its outputs go, not the machine. A Gpu does not
// take them as parameters.
bool run_option(const char *name)
{
    static const char *const run[] = {"trace", "smtlm_stats_json", "smtlm_report", "smtlm_stats_csv",
                                      "smtlm_event_log", "smtlm_pipeline_log", "smtlm_vcd", "smtlm_log_cycles",
                                      "smtlm_log_sms", "smtlm_log_warps", "smtlm_list_options",
                                      "smtlm_check_options", "smtlm_engine", "smtlm_reader_thread",
                                      "smtlm_trace_stream_mib", "smtlm_quiet", "smtlm_verbose"};
    for (const char *r : run)
        if (!std::strcmp(name, r))
            return true;
    return !std::strncmp(name, "smtlm_synth_", 12);
}

// "<instance>.<parameter>": identifiers ([A-Za-z0-9_]+) joined by dots, at least two; the
// parameter may also hold ':' (GPGPU-Sim's option names: gpgpu_cache:dl1).
bool preset_name(const std::string &s)
{
    if (s.empty() || s.front() == '.' || s.back() == '.' || s.find('.') == std::string::npos)
        return false;
    const size_t param = s.rfind('.') + 1;
    for (size_t i = 0; i < s.size(); i++) {
        const char c = s[i];
        if (c == '.' ? s[i + 1] == '.' : !(std::isalnum((unsigned char)c) || c == '_' || (c == ':' && i >= param)))
            return false;
    }
    return true;
}

std::string trim(const std::string &s)
{
    const size_t a = s.find_first_not_of(" \t\r\n"), b = s.find_last_not_of(" \t\r\n");
    return a == std::string::npos ? std::string() : s.substr(a, b - a + 1);
}

// "NAME=VALUE" split at the first '=' with a valid NAME.
bool split_preset(const std::string &arg, std::string *name, std::string *value)
{
    const size_t eq = arg.find('=');
    if (eq == std::string::npos || !preset_name(trim(arg.substr(0, eq))))
        return false;
    *name = trim(arg.substr(0, eq));
    *value = trim(arg.substr(eq + 1));
    return true;
}

std::string at(const std::string &where, int line) { return where + ":" + std::to_string(line); }

// A relative path set in preset file `where` is relative to that file's directory, as a nested
// -config is to its including file; one set from code or the command line stays as it is.
std::string beside(const std::string &where, const std::string &path)
{
    if (path.empty() || path[0] == '/' || where.empty() || where[0] == '<')
        return path;
    const size_t slash = where.rfind('/');
    return slash == std::string::npos ? path : where.substr(0, slash + 1) + path;
}

// The option reader's message without its leading "<where>:<line>: " (the caller names it).
std::string without_location(const std::string &msg, const std::string &loc)
{
    return msg.compare(0, loc.size() + 2, loc + ": ") == 0 ? msg.substr(loc.size() + 2) : msg;
}

const char kConfigHelp[] = "machine config file read before the other parameters (smsim's -config: GPGPU-Sim syntax, "
                           "nested -config)";

} // namespace

sc_core::sc_time clock_period(double core_clock_mhz)
{
    return sc_core::sc_time(core_clock_mhz > 0 ? 1e6 / core_clock_mhz : 1000.0, sc_core::SC_PS);
}

std::string gpu_params(const smtlm_engine_params &p, GpuParams *out)
{
    if (p.threads > 1)
        return "-smtlm_threads " + std::to_string(p.threads) +
               ": the SystemC engine runs on one thread (use -smtlm_engine c for more)";
    out->quantum_cycles = p.quantum_cycles;
    out->real_access = p.real_access != 0;
    out->stage_dmi = p.stage_dmi != 0;
    out->single_mem_port = p.single_mem_port != 0;
    out->memory_waits = p.memory_waits != 0;
    out->sm_windows = p.sm_windows == SMTLM_WINDOWS_OFF ? SmWindows::Off
                      : p.sm_windows == SMTLM_WINDOWS_ON ? SmWindows::On
                                                         : SmWindows::Auto;
    out->addr_map.clear();
    for (unsigned i = 0; i < p.n_map; i++)
        out->addr_map.push_back({p.map[i].trace_base, p.map[i].size, p.map[i].soc_base});
    return "";
}

std::string GpuConfig::from_options(const smtlm_options &opts)
{
    char err[2048];
    smtlm_run_cfg rc;
    smtlm_engine_params p;
    if (smtlm_engine_config(&opts, &rc, err, sizeof err) ||
        smtlm_engine_params_config(&opts, rc.core_clock_mhz, &p, err, sizeof err))
        return err;
    GpuParams gp;
    const std::string why = gpu_params(p, &gp);
    if (!why.empty())
        return origin_of(opts, "smtlm_threads") + ": " + why;
    const char *listing = "";
    smtlm_options_get_str(&opts, "smtlm_sass", &listing);
    if (*listing && !rc.gpu.sm.silicon.enabled)
        return origin_of(opts, "smtlm_sass") + ": -smtlm_sass: " SMTLM_SASS_ONLY_SILICON;
    sass = listing;
    gpu = rc.gpu;
    lat = rc.lat;
    core_clock_mhz = rc.core_clock_mhz;
    period = clock_period(core_clock_mhz);
    mem_latency = cycles_time(gpu.mem_latency, period);
    params = gp;
    return "";
}

std::string GpuConfig::from_argv(int argc, const char *const *argv)
{
    OptionsPtr o = new_options();
    char err[2048];
    if (!o)
        return "out of memory";
    if (smtlm_options_parse_argv(o.get(), argc, argv, err, sizeof err) != SMTLM_OPT_OK)
        return err;
    return from_options(*o);
}

std::string GpuConfig::from_text(const std::string &text, const std::string &name)
{
    OptionsPtr o = new_options();
    char err[2048];
    if (!o)
        return "out of memory";
    if (smtlm_options_parse_text(o.get(), text.data(), text.size(), name.c_str(), err, sizeof err) != SMTLM_OPT_OK)
        return err;
    return from_options(*o);
}

void print_parameters(std::ostream &os, const std::vector<ParamInfo> &params)
{
    for (const ParamInfo &p : params)
        os << p.name << " = " << p.value << "  # " << p.description << " [" << p.origin
           << (p.modelled ? "" : ", not modelled") << "]\n";
}

// ---- the broker ----

Parameters &param_broker()
{
    static Parameters broker;
    return broker;
}

void Parameters::set_preset(const std::string &name, const std::string &value, const std::string &where, int line)
{
    for (Preset &p : presets_)
        if (p.name == name) {
            p.value = value;
            p.where = where;
            p.line = line;
            p.consumed = false;
            return;
        }
    presets_.push_back({name, value, where, line, false});
}

std::string Parameters::take_args(int *argc, char **argv)
{
    int out = 1;
    std::string name, value;
    for (int i = 1; i < *argc; i++) {
        if (!std::strcmp(argv[i], "--param")) {
            if (i + 1 >= *argc || !split_preset(argv[i + 1], &name, &value))
                return "<command line>:" + std::to_string(i + 1) + ": --param takes NAME=VALUE (NAME: " +
                       "<instance>.<parameter>, e.g. gpu0.gpgpu_n_clusters=4)";
            set_preset(name, value, "<command line>", ++i);
        } else if (split_preset(argv[i], &name, &value)) {
            set_preset(name, value, "<command line>", i);
        } else {
            argv[out++] = argv[i];
        }
    }
    if (*argc > 0)
        argv[out] = nullptr;
    *argc = *argc > 0 ? out : *argc;
    return "";
}

std::string Parameters::read_file(const std::string &path)
{
    std::ifstream in(path);
    if (!in)
        return path + ": cannot open: " + std::strerror(errno);
    std::string line, name, value;
    for (int n = 1; std::getline(in, line); n++) {
        const std::string text = trim(line.substr(0, line.find('#')));
        if (text.empty())
            continue;
        if (!split_preset(text, &name, &value))
            return at(path, n) + ": '" + text + "' is not NAME = VALUE (NAME: <instance>.<parameter>, e.g. " +
                   "gpu0.gpgpu_n_clusters = 4)";
        set_preset(name, value, path, n);
    }
    if (in.bad())
        return path + ": read error";
    return "";
}

const Parameters::Preset *Parameters::find(const std::string &name) const
{
    for (const Preset &p : presets_)
        if (p.name == name)
            return &p;
    return nullptr;
}

const Parameters::Preset *Parameters::take(const std::string &name)
{
    Preset *p = const_cast<Preset *>(find(name));
    if (p)
        p->consumed = true;
    return p;
}

std::vector<const Parameters::Preset *> Parameters::under(const std::string &instance) const
{
    std::vector<const Preset *> out;
    for (const Preset &p : presets_)
        if (p.name.size() > instance.size() + 1 && !p.name.compare(0, instance.size(), instance) &&
            p.name[instance.size()] == '.' && p.name.find('.', instance.size() + 1) == std::string::npos)
            out.push_back(&p);
    return out;
}

std::vector<const Parameters::Preset *> Parameters::take_under(const std::string &instance)
{
    std::vector<const Preset *> out = under(instance);
    for (const Preset *p : out)
        const_cast<Preset *>(p)->consumed = true;
    return out;
}

std::string Parameters::unconsumed() const
{
    std::string out;
    for (const Preset &p : presets_) {
        if (p.consumed)
            continue;
        const std::string inst = p.name.substr(0, p.name.rfind('.'));
        const sc_core::sc_object *obj = sc_core::sc_find_object(inst.c_str());
        const std::string why =
            !obj ? "there is no module " + inst
            : dynamic_cast<const Gpu *>(obj)
                ? "no Gpu took it (set after " + inst + " was built, or " + inst + " was not built with Gpu(name, kernels))"
                : "nothing took it (" + inst + " is not a Gpu, and did not take it with param_broker().take())";
        out += (out.empty() ? "" : "\n") + at(p.where, p.line) + ": " + p.name + " = " + p.value + ": " + why;
    }
    return out;
}

// ---- a Gpu's configuration from the presets ----

namespace {

// Applies an instance's presets to o: `config` first (*config_file), then the others in order.
// "" or "<where>:<line>: <full name>: ...".
std::string apply_presets(const std::string &instance, const std::vector<const Parameters::Preset *> &presets,
                          smtlm_options *o, std::string *config_file)
{
    char err[2048];
    auto fail = [&](const Parameters::Preset &p, const std::string &why) {
        const std::string loc = at(p.where, p.line);
        return loc + ": " + p.name + ": " + without_location(why, loc);
    };
    for (const Parameters::Preset *p : presets)
        if (p->name.compare(instance.size() + 1, std::string::npos, "config") == 0) {
            *config_file = p->value;
            if (p->value.empty()) // none (as print_parameters lists a Gpu built without one)
                continue;
            const std::string path = beside(p->where, p->value);
            // listed as an absolute path, so that print_parameters reads back from anywhere
            *config_file = std::filesystem::absolute(path).lexically_normal().string();
            if (smtlm_options_parse_file(o, path.c_str(), err, sizeof err) != SMTLM_OPT_OK)
                return fail(*p, err);
        }
    for (const Parameters::Preset *p : presets) {
        const std::string opt = p->name.substr(instance.size() + 1);
        if (opt == "config")
            continue;
        if (run_option(opt.c_str()))
            return fail(*p, "-" + opt + " is smsim's, not a Gpu parameter (the platform gives the Gpu its kernels "
                                        "and reads its statistics)");
        if (smtlm_options_set_at(o, opt.c_str(), p->value.c_str(), p->where.c_str(), p->line, err, sizeof err) !=
            SMTLM_OPT_OK)
            return fail(*p, err);
    }
    return "";
}

// The configuration from an instance's presets: "" or the message.
std::string configure(const std::string &instance, const std::vector<const Parameters::Preset *> &presets,
                      smtlm_options *o, std::string *config_file, GpuConfig *out)
{
    std::string why = apply_presets(instance, presets, o, config_file);
    if (why.empty() && !(why = out->from_options(*o)).empty())
        why += " (" + instance + ")";
    return why;
}

} // namespace

std::string GpuConfig::from_presets(const std::string &instance)
{
    OptionsPtr o = new_options();
    std::string config_file;
    if (!o)
        return "out of memory";
    return configure(instance, param_broker().under(instance), o.get(), &config_file, this);
}

std::shared_ptr<GpuSetup> GpuSetup::for_instance(const char *name, SmHook sm_hook)
{
    auto s = std::make_shared<GpuSetup>();
    const sc_core::sc_object *parent = sc_core::sc_get_current_object();
    s->full_name = parent ? std::string(parent->name()) + "." + name : std::string(name);
    const std::vector<const Parameters::Preset *> presets = param_broker().take_under(s->full_name);
    OptionsPtr o = new_options();
    if (!o)
        throw std::bad_alloc();
    std::string config_file;
    s->error = configure(s->full_name, presets, o.get(), &config_file, &s->config);
    if (!s->error.empty()) {
        SC_REPORT_ERROR("smtlm/config", s->error.c_str());
        o = new_options(); // the report was not an exception: the built-in machine, marked refused
        if (!o)
            throw std::bad_alloc();
        s->config.from_options(*o);
    }
    s->config.params.sm_hook = std::move(sm_hook);
    size_t n = 0;
    const smtlm_option_def *defs = smtlm_option_table(&n);
    s->params.push_back({s->full_name + ".config", config_file, kConfigHelp, "<default>", true});
    for (const Parameters::Preset *p : presets)
        if (p->name == s->full_name + ".config")
            s->params.back().origin = at(p->where, p->line);
    char value[1024];
    for (size_t i = 0; i < n; i++) {
        if (run_option(defs[i].name))
            continue;
        smtlm_options_value_text(o.get(), defs[i].name, value, sizeof value);
        s->params.push_back({s->full_name + "." + defs[i].name, value, defs[i].desc, origin_of(*o, defs[i].name),
                             defs[i].modelled != 0});
    }
    return s;
}

void GpuSetup::attach(Gpu &gpu)
{
    if (full_name != gpu.name())
        SC_REPORT_ERROR("smtlm/config", (full_name + ": SystemC named the module " + gpu.name() +
                                         ": its presets were taken under " + full_name)
                                            .c_str());
    attributes.reserve(params.size());
    const size_t skip = full_name.size() + 1;
    for (const ParamInfo &p : params) {
        attributes.emplace_back(new sc_core::sc_attribute<std::string>(p.name.substr(skip), p.value));
        gpu.add_attribute(*attributes.back());
    }
}

void Parameters::check_unconsumed()
{
    if (checked_)
        return;
    checked_ = true;
    const std::string left = unconsumed();
    if (!left.empty())
        SC_REPORT_ERROR("smtlm/config", ("presets nothing took:\n" + left).c_str());
}

} // namespace smtlm
