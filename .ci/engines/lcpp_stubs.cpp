// Link-time stand-ins for the parts of llama.cpp that the converter and the
// grammar matcher reference but never need here (no model, no vocabulary).
// Written for the schemacast engine harness; behaviour of the string helpers
// follows llama.cpp's common.cpp (split keeps empty parts, join with separator).
#include "llama-impl.h"
#include "llama-vocab.h"

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

std::string string_join(const std::vector<std::string> & values, const std::string & separator) {
    std::string out;
    for (size_t i = 0; i < values.size(); i++) {
        if (i) out += separator;
        out += values[i];
    }
    return out;
}

std::vector<std::string> string_split(const std::string & str, const std::string & delimiter) {
    std::vector<std::string> parts;
    size_t from = 0;
    for (;;) {
        size_t at = str.find(delimiter, from);
        if (at == std::string::npos) break;
        parts.push_back(str.substr(from, at - from));
        from = at + delimiter.size();
    }
    parts.push_back(str.substr(from));
    return parts;
}

std::string string_repeat(const std::string & str, size_t n) {
    std::string out;
    for (size_t i = 0; i < n; i++) out += str;
    return out;
}

extern "C" void ggml_abort(const char * file, int line, const char * fmt, ...) {
    va_list args;
    va_start(args, fmt);
    fprintf(stderr, "ggml_abort %s:%d: ", file, line);
    vfprintf(stderr, fmt, args);
    va_end(args);
    fputc('\n', stderr);
    abort();
}

static ggml_log_callback g_cb = nullptr;
static void * g_ud = nullptr;

void llama_log_set(ggml_log_callback cb, void * ud) { g_cb = cb; g_ud = ud; }

void llama_log_internal(ggml_log_level level, const char * format, ...) {
    char buf[4096];
    va_list args;
    va_start(args, format);
    vsnprintf(buf, sizeof buf, format, args);
    va_end(args);
    if (g_cb) g_cb(level, buf, g_ud); else fputs(buf, stderr);
}

bool llama_vocab::is_eog(llama_token) const { throw std::logic_error("no vocabulary in the harness"); }
const std::string & llama_vocab::token_to_piece(llama_token) const { throw std::logic_error("no vocabulary in the harness"); }
int32_t llama_vocab::tokenize(const char *, int32_t, llama_token *, int32_t, bool, bool) const { throw std::logic_error("no vocabulary in the harness"); }
