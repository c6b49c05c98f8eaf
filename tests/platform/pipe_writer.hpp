// A pipe fed by a thread of the test: `head`, then `line` again and again until `bytes` in all
// are written (cut there), or without end (PipeWriter::endless) until the writer is destroyed.
// The pipe's read end stays open here, so the writer never sees a closed pipe; what the reader
// under test leaves is drained at the end. path() names the read end for a reader that opens it.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <thread>

#include <unistd.h>

struct PipeWriter {
    static constexpr size_t endless = SIZE_MAX;
    int fd[2] = {-1, -1};
    std::atomic<bool> stop{false};
    std::thread writer;
    explicit PipeWriter(size_t bytes, const std::string &head = "",
                        const std::string &line = "# a comment line of the stream\n")
    {
        if (pipe(fd) != 0)
            return;
        writer = std::thread([this, bytes, head, line] {
            std::string chunk = head;
            size_t left = bytes;
            while (left && !stop) {
                while (chunk.size() < 65536)
                    chunk += line;
                const size_t n = chunk.size() < left ? chunk.size() : left;
                for (size_t at = 0; at < n;) {
                    const ssize_t w = ::write(fd[1], chunk.data() + at, n - at);
                    if (w <= 0) {
                        left = 0;
                        break;
                    }
                    at += (size_t)w;
                }
                if (left != endless)
                    left -= left ? n : 0;
                chunk.clear();
            }
            close(fd[1]);
        });
    }
    std::string path() const { return "/dev/fd/" + std::to_string(fd[0]); }
    ~PipeWriter()
    {
        stop = true;
        char buf[65536];
        while (fd[0] >= 0 && read(fd[0], buf, sizeof buf) > 0) {
        }
        if (writer.joinable())
            writer.join();
        if (fd[0] >= 0)
            close(fd[0]);
    }
};
