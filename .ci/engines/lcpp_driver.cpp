// schemacast engine conformance: a line protocol around llama.cpp's JSON-schema
// converter and its GBNF matcher, so Python can drive them without a model.
// Built by build_llamacpp.sh against the llama.cpp sources of a PyPI sdist.
//
//   request:  "<cmd> <n>\n" followed by n bytes
//     S  schema JSON text  -> convert (as llama-server does) and load the grammar
//     G  GBNF text         -> load the grammar
//     A  candidate text    -> "1" when the loaded grammar accepts the whole text and may
//                             stop there, else "0 <byte offset of the refused character>"
//                             (the text's length: a prefix, but the grammar cannot stop)
//   reply:    "OK <n>\n<bytes>" or "ER <n>\n<bytes>"
#include "json-schema-to-grammar.h"
#include "llama-grammar.h"
#include "llama-impl.h"

#include <cstdio>
#include <iostream>
#include <stdexcept>
#include <string>

#ifdef SC_OLD_JSON
#include <nlohmann/json.hpp>
using sc_json = nlohmann::ordered_json;
#else
#include "json.h"
using sc_json = common_json;
#endif

static std::string g_log;

static void sc_log(enum ggml_log_level, const char * text, void *) { g_log += text; }

static void reply(const char * status, const std::string & body) {
    std::cout << status << ' ' << body.size() << '\n' << body;
    std::cout.flush();
}

static llama_grammar * g_grammar = nullptr;
static llama_grammar_stacks g_initial;

static bool load(const std::string & gbnf, std::string & err) {
    if (g_grammar) { llama_grammar_free_impl(g_grammar); g_grammar = nullptr; }
    g_log.clear();
    g_grammar = llama_grammar_init_impl(nullptr, gbnf.c_str(), "root", false, nullptr, 0, nullptr, 0);
    if (!g_grammar) { err = "grammar rejected by the GBNF parser: " + g_log; return false; }
    g_initial = llama_grammar_get_stacks(g_grammar);
    return true;
}

// Feeds the text one UTF-8 character at a time (as llama_grammar_accept_str would,
// code point by code point), so that a refusal has a position.
static std::string accepts(const std::string & text) {
    auto & stacks = llama_grammar_get_stacks(g_grammar);
    stacks = g_initial;
    size_t at = 0;
    while (at < text.size()) {
        size_t len = 1;
        unsigned char lead = (unsigned char) text[at];
        if (lead >= 0xF0) len = 4; else if (lead >= 0xE0) len = 3; else if (lead >= 0xC0) len = 2;
        try {
            llama_grammar_accept_str(*g_grammar, text.substr(at, len));
        } catch (const std::exception &) {
            return "0 " + std::to_string(at);
        }
        at += len;
    }
    for (const auto & s : stacks) if (s.empty()) return "1";  // an empty stack: the grammar may end here
    return "0 " + std::to_string(text.size());
}

int main() {
    llama_log_set(sc_log, nullptr);
    std::ios::sync_with_stdio(false);
    std::string cmd;
    size_t n;
    while (std::cin >> cmd >> n) {
        std::cin.get();
        std::string payload(n, '\0');
        std::cin.read(&payload[0], (std::streamsize) n);
        std::string err;
        try {
            if (cmd == "S") {
                sc_json schema = sc_json::parse(payload);
                std::string gbnf = json_schema_to_grammar(schema);
                if (!load(gbnf, err)) reply("ER", err + "\n--- grammar ---\n" + gbnf);
                else reply("OK", gbnf);
            } else if (cmd == "G") {
                if (!load(payload, err)) reply("ER", err); else reply("OK", "");
            } else if (cmd == "A") {
                if (!g_grammar) reply("ER", "no grammar loaded");
                else reply("OK", accepts(payload));
            } else {
                reply("ER", "unknown command " + cmd);
            }
        } catch (const std::exception & e) {
            reply("ER", e.what());
        }
    }
    return 0;
}
