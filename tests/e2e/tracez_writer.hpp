// A .tracez writer for the tests (Accel-Sim 2.0's layout, little-endian): a text trace's header
// up to a NUL; u32 dictionary size, u32 sub-chunk size; the dictionary; per warp u32 instruction
// count, u32 sub-chunk count and each sub-chunk as u32 compressed size + one zstd frame of its
// instruction lines; the index (u32 block count; per block u32 block x/y/z, cluster id x/y/z,
// cluster cta x/y/z, cluster rank, warp count; per warp u32 instruction count, u32 sub-chunk
// count, u64 offset, u32 per sub-chunk count); the index's offset in the last 8 bytes.
// Options make the variants the reader must take (a dictionary, a last line without '\n') and
// report where things are, so a test can damage one of them.
#pragma once

#include <cstdint>
#include <sstream>
#include <string>
#include <vector>
#include <zstd.h>

namespace tracez {

struct Options {
    unsigned subchunk = 4096;   // instructions per sub-chunk
    bool dict = false;          // a raw-content dictionary (the first block's first lines)
    bool content_size = true;   // frames declare their content size
    bool last_newline = true;   // a frame's last line ends with '\n'
};

// Where the parts are in the written file (byte offsets).
struct Layout {
    size_t dict_size_at = 0;    // the u32 dictionary size
    size_t first_warp_at = 0;   // the first warp's data (its u32 count)
    size_t first_frame_at = 0;  // the first sub-chunk's u32 compressed size
    size_t index_at = 0;        // the index (its u32 block count)
    size_t first_warp_rec = 0;  // the first warp's index record (its u32 instruction count)
};

struct Block {
    uint32_t label[3] = {0, 0, 0}, cid[3] = {0, 0, 0}, ccta[3] = {0, 0, 0}, rank = 0;
    std::vector<std::vector<std::string>> warps;
};

inline void put32(std::string &s, uint32_t v)
{
    for (int k = 0; k < 4; k++)
        s += (char)(v >> (8 * k) & 0xff);
}

inline void put64(std::string &s, uint64_t v)
{
    put32(s, (uint32_t)v);
    put32(s, (uint32_t)(v >> 32));
}

inline void set32(std::string &s, size_t at, uint32_t v)
{
    for (int k = 0; k < 4; k++)
        s[at + k] = (char)(v >> (8 * k) & 0xff);
}

inline uint32_t get32(const std::string &s, size_t at)
{
    uint32_t v = 0;
    for (int k = 0; k < 4; k++)
        v |= (uint32_t)(unsigned char)s[at + k] << (8 * k);
    return v;
}

inline void xyz(const std::string &line, uint32_t out[3])
{
    std::sscanf(line.c_str() + line.find('=') + 1, "%u,%u,%u", &out[0], &out[1], &out[2]);
}

// The text trace's header (the lines before the first #BEGIN_TB) and its blocks. A line that
// starts with '!' is an instruction line (the rest of it), so a test can put anything in a frame.
inline std::string parse(const std::string &text, std::vector<Block> &blocks)
{
    std::istringstream in(text);
    std::string line, header;
    bool body = false;
    int warp = -1;
    while (std::getline(in, line)) {
        const size_t first = line.find_first_not_of(" \t");
        const std::string t = first == std::string::npos ? "" : line.substr(first);
        if (!body && t.rfind("#BEGIN_TB", 0) != 0) {
            header += line + "\n";
            continue;
        }
        body = true;
        if (t.empty() || t.rfind("#END_TB", 0) == 0)
            continue;
        if (t.rfind("#BEGIN_TB", 0) == 0) {
            blocks.emplace_back();
            warp = -1;
        } else if (t.rfind("thread block", 0) == 0) {
            xyz(t, blocks.back().label);
        } else if (t.rfind("cluster id", 0) == 0) {
            xyz(t, blocks.back().cid);
        } else if (t.rfind("cluster cta", 0) == 0) {
            xyz(t, blocks.back().ccta);
        } else if (t.rfind("cluster rank", 0) == 0) {
            std::sscanf(t.c_str() + t.find('=') + 1, "%u", &blocks.back().rank);
        } else if (t.rfind("warp", 0) == 0) {
            warp = std::stoi(t.substr(t.find('=') + 1));
            if (blocks.back().warps.size() <= (size_t)warp)
                blocks.back().warps.resize((size_t)warp + 1);
        } else if (t[0] == '!') { // a test's line taken as an instruction line whatever it holds
            blocks.back().warps[(size_t)warp].push_back(t.substr(1));
        } else if (t.rfind("insts", 0) != 0) {
            blocks.back().warps[(size_t)warp].push_back(t);
        }
    }
    return header;
}

inline std::string frame(ZSTD_CCtx *cc, const std::string &plain)
{
    std::string out(ZSTD_compressBound(plain.size()), '\0');
    const size_t n = ZSTD_compress2(cc, out.data(), out.size(), plain.data(), plain.size());
    out.resize(ZSTD_isError(n) ? 0 : n);
    return out;
}

// The .tracez of a text trace.
inline std::string write(const std::string &text, const Options &o = Options(), Layout *lay = nullptr)
{
    std::vector<Block> blocks;
    const std::string header = parse(text, blocks);
    Layout l;
    std::string dict;
    if (o.dict && !blocks.empty() && !blocks[0].warps.empty())
        for (size_t i = 0; i < blocks[0].warps[0].size() && i < 8; i++)
            dict += blocks[0].warps[0][i] + "\n";
    ZSTD_CCtx *cc = ZSTD_createCCtx();
    ZSTD_CCtx_setParameter(cc, ZSTD_c_compressionLevel, 3);
    ZSTD_CCtx_setParameter(cc, ZSTD_c_contentSizeFlag, o.content_size ? 1 : 0);
    if (!dict.empty())
        ZSTD_CCtx_loadDictionary(cc, dict.data(), dict.size());
    std::string f = header;
    f += '\0';
    l.dict_size_at = f.size();
    put32(f, (uint32_t)dict.size());
    put32(f, o.subchunk);
    f += dict;
    struct WarpRec {
        uint32_t n, nsc;
        uint64_t off;
        std::vector<uint32_t> counts;
    };
    std::vector<std::vector<WarpRec>> recs(blocks.size());
    for (size_t b = 0; b < blocks.size(); b++)
        for (const std::vector<std::string> &w : blocks[b].warps) {
            WarpRec r{(uint32_t)w.size(), 0, f.size(), {}};
            if (b == 0 && recs[0].empty())
                l.first_warp_at = f.size();
            std::string data;
            for (size_t i = 0; i < w.size(); i += o.subchunk) {
                std::string plain;
                const size_t end = std::min(w.size(), i + o.subchunk);
                for (size_t k = i; k < end; k++)
                    plain += w[k] + (k + 1 < end || o.last_newline ? "\n" : "");
                const std::string z = frame(cc, plain);
                if (l.first_frame_at == 0)
                    l.first_frame_at = f.size() + 8 + data.size();
                put32(data, (uint32_t)z.size());
                data += z;
                r.counts.push_back((uint32_t)(end - i));
            }
            r.nsc = (uint32_t)r.counts.size();
            put32(f, r.n);
            put32(f, r.nsc);
            f += data;
            recs[b].push_back(r);
        }
    ZSTD_freeCCtx(cc);
    l.index_at = f.size();
    put32(f, (uint32_t)blocks.size());
    for (size_t b = 0; b < blocks.size(); b++) {
        const Block &k = blocks[b];
        for (uint32_t v : {k.label[0], k.label[1], k.label[2], k.cid[0], k.cid[1], k.cid[2], k.ccta[0], k.ccta[1],
                           k.ccta[2], k.rank, (uint32_t)k.warps.size()})
            put32(f, v);
        for (const WarpRec &r : recs[b]) {
            if (l.first_warp_rec == 0)
                l.first_warp_rec = f.size();
            put32(f, r.n);
            put32(f, r.nsc);
            put64(f, r.off);
            for (uint32_t c : r.counts)
                put32(f, c);
        }
    }
    put64(f, l.index_at);
    if (lay)
        *lay = l;
    return f;
}

} // namespace tracez
