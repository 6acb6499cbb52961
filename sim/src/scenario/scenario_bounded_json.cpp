// The bounded JSON parse of a scenario file or a --set value: one SAX pass
// that builds the document and stops at a syntax error, a limit or a
// duplicate key.
#include <algorithm>

#include <fmt/format.h>

#include "leasescope/sim/limits.hpp"
#include "leasescope/sim/utf8.hpp"
#include "scenario_internal.hpp"

namespace leasescope::sim::scenario_detail {
namespace {

// One SAX pass over a JSON text that builds its document as nlohmann's
// json_sax_dom_parser does, checking each value before it is added (docs/
// scenario-format.md "Limits"). It stops at the first syntax error (kept for
// the caller, which names its line and column), at the first limit of
// limits.hpp that the text exceeds (depth, string and key bytes, keys per
// object, values), and at a key given twice in one object (nlohmann's DOM
// would silently keep the last). The text is read once: the checks were a
// pass of their own before the document's (docs/performance.md "Scenario
// parse"). A path is built only for an error, from each open container's
// last index or key, which points into its parent while the value is read.
class BoundedBuild final : public nlohmann::json_sax<json> {
public:
    // `base`: the path of the document's root in error messages ("" for a
    // file, "/defaults/lease" for the value of a --set).
    explicit BoundedBuild(std::string base, std::int64_t base_depth = 0)
        : base_(std::move(base)), base_depth_(base_depth) {}

    bool null() override { return scalar(nullptr); }
    bool boolean(bool b) override { return scalar(b); }
    bool number_integer(number_integer_t n) override { return scalar(n); }
    bool number_unsigned(number_unsigned_t n) override { return scalar(n); }
    bool number_float(number_float_t x, const string_t&) override { return scalar(x); }
    bool string(string_t& s) override {
        if (static_cast<std::int64_t>(s.size()) > limits::json_string_bytes_max)
            fail(value_path(), fmt::format("a string of {} bytes; at most {} (json_string_bytes_max)", s.size(),
                                           limits::json_string_bytes_max));
        return scalar(s);
    }
    bool binary(binary_t& b) override { return scalar(json(b)); }
    bool start_object(std::size_t) override { return open(json::value_t::object); }
    bool start_array(std::size_t) override { return open(json::value_t::array); }
    bool end_object() override { return close(); }
    bool end_array() override { return close(); }
    bool key(string_t& key) override {
        Frame& f = stack_.back();
        if (static_cast<std::int64_t>(key.size()) > limits::json_string_bytes_max)
            fail(container_path() + "/" + path_part(key),
                 fmt::format("a key of {} bytes; at most {} (json_string_bytes_max)", key.size(),
                             limits::json_string_bytes_max));
        auto& object = f.container->get_ref<json::object_t&>();
        if (static_cast<std::int64_t>(object.size()) >= limits::json_object_keys_max)
            fail(shown(container_path()),
                 fmt::format("an object with more than {} keys (json_object_keys_max)", limits::json_object_keys_max));
        const auto [at, added] = object.emplace(key, nullptr);
        if (!added)
            fail(container_path() + "/" + path_part(key),
                 fmt::format("key {} appears twice in this object; keep one", quote(key)));
        f.last_key = &at->first;
        f.element = &at->second;
        return true;
    }
    bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception& e) override {
        syntax_error_ = e.what();
        syntax_position_ = position;
        // A number beyond a double (1e400) is nlohmann's out_of_range 406,
        // reported here like a syntax error but with its own words.
        out_of_range_ = e.id == 406;
        return false;
    }

    const std::optional<std::string>& syntax_error() const { return syntax_error_; }
    std::size_t syntax_position() const { return syntax_position_; }
    bool out_of_range() const { return out_of_range_; }
    // The document, once the whole text was read without an error.
    json take_document() { return std::move(root_); }

private:
    // An open array or object. `last_key` and `element` point into the
    // object's own pairs, which do not move while the key's value is read.
    struct Frame {
        bool is_array = false;
        json* container = nullptr;
        std::size_t next_index = 0;
        const std::string* last_key = nullptr;
        json* element = nullptr;  // where the value of `last_key` goes
    };
    // The path of the innermost open container ("" for the root of a file).
    std::string container_path() const {
        std::string path = base_;
        for (std::size_t i = 1; i < stack_.size(); ++i) {
            const Frame& parent = stack_[i - 1];
            path += '/';
            path += parent.is_array ? std::to_string(parent.next_index - 1) : path_part(*parent.last_key);
        }
        return path;
    }
    static std::string shown(std::string path) { return path.empty() ? "/" : path; }
    // The path of the value being read now.
    std::string value_path() const {
        if (stack_.empty()) return shown(base_);
        const Frame& f = stack_.back();
        return container_path() + "/" + (f.is_array ? std::to_string(f.next_index) : path_part(*f.last_key));
    }
    void count() {
        if (++values_ > limits::json_values_max)
            fail(value_path(),
                 fmt::format("the document has more than {} values (json_values_max)", limits::json_values_max));
    }
    // Puts a checked value where the text has it: the root, the end of the
    // open array, or the open object's last key.
    template <class V>
    json* place(V&& v) {
        if (stack_.empty()) {
            root_ = json(std::forward<V>(v));
            return &root_;
        }
        Frame& f = stack_.back();
        if (f.is_array) {
            auto& array = f.container->get_ref<json::array_t&>();
            array.emplace_back(std::forward<V>(v));
            ++f.next_index;
            return &array.back();
        }
        *f.element = json(std::forward<V>(v));
        return f.element;
    }
    template <class V>
    bool scalar(V&& v) {
        count();
        place(std::forward<V>(v));
        return true;
    }
    bool open(json::value_t type) {
        count();
        if (base_depth_ + static_cast<std::int64_t>(stack_.size()) + 1 > limits::json_depth_max)
            fail(value_path(),
                 fmt::format("arrays and objects nested more than {} deep (json_depth_max)", limits::json_depth_max));
        json* container = place(type);
        stack_.push_back(Frame{type == json::value_t::array, container});
        return true;
    }
    bool close() {
        stack_.pop_back();
        return true;
    }
    std::string base_;
    std::int64_t base_depth_ = 0;
    std::vector<Frame> stack_;
    std::int64_t values_ = 0;
    json root_;
    std::optional<std::string> syntax_error_;
    std::size_t syntax_position_ = 0;
    bool out_of_range_ = false;
};

// The document of PlainScan's events, built from the bottom up: a
// container's values (and an object's keys) wait on a stack until it
// closes, then move into it at their final size, an object's pairs sorted
// once. BoundedBuild inserts each key into its object's sorted vector, which
// grew a few times per object, and copied each key and string twice: that
// was a sixth of reading a 100,000-candidate scenario (docs/performance.md
// "Scenario parse"). It checks what BoundedBuild checks (depth, string and
// key bytes, keys per object, values, a key given twice), but a failed check
// only returns false: the text is then read again by nlohmann's parser and a
// BoundedBuild, which reports the error with its path.
class StackBuild {
public:
    explicit StackBuild(std::int64_t base_depth) : base_depth_(base_depth) {}

    bool null() { return scalar(nullptr); }
    bool boolean(bool b) { return scalar(b); }
    bool number_integer(std::int64_t n) { return scalar(n); }
    bool number_unsigned(std::uint64_t n) { return scalar(n); }
    bool string(std::string_view s) {
        return static_cast<std::int64_t>(s.size()) <= limits::json_string_bytes_max && scalar(std::string(s));
    }
    bool start_object() { return open(false); }
    bool start_array() { return open(true); }
    bool key(std::string_view key) {
        if (static_cast<std::int64_t>(key.size()) > limits::json_string_bytes_max) return false;
        if (static_cast<std::int64_t>(keys_.size() - open_.back().keys_from) >= limits::json_object_keys_max)
            return false;
        keys_.emplace_back(key);
        return true;
    }
    bool end_array() {
        const Frame f = open_.back();
        open_.pop_back();
        json array(json::value_t::array);
        auto& items = array.get_ref<json::array_t&>();
        items.reserve(values_.size() - f.values_from);
        for (std::size_t i = f.values_from; i < values_.size(); ++i) items.push_back(std::move(values_[i]));
        values_.resize(f.values_from);
        values_.push_back(std::move(array));
        return true;
    }
    // The pairs in key order; false at a key given twice.
    bool end_object() {
        const Frame f = open_.back();
        open_.pop_back();
        const std::size_t n = keys_.size() - f.keys_from;
        order_.resize(n);
        for (std::size_t i = 0; i < n; ++i) order_[i] = f.keys_from + i;
        std::sort(order_.begin(), order_.end(),
                  [&](std::size_t a, std::size_t b) { return key_less(keys_[a], keys_[b]); });
        json object(json::value_t::object);
        auto& pairs = object.get_ref<json::object_t&>();
        pairs.reserve(n);
        for (std::size_t i = 0; i < n; ++i) {
            const std::size_t k = order_[i];
            if (i > 0 && key_equal(pairs.back().first, keys_[k])) return false;  // the key before was moved
            pairs.emplace_back(std::move(keys_[k]), std::move(values_[f.values_from + (k - f.keys_from)]));
        }
        keys_.resize(f.keys_from);
        values_.resize(f.values_from);
        values_.push_back(std::move(object));
        return true;
    }
    // The document, once the whole text was read.
    json take_document() {
        LS_ASSERT(open_.empty());
        LS_ASSERT(values_.size() == 1);
        return std::move(values_.front());
    }

private:
    struct Frame {
        std::size_t values_from = 0;  // its values are values_[values_from..]
        std::size_t keys_from = 0;    // an object's keys are keys_[keys_from..]
    };
    bool count() { return ++values_count_ <= limits::json_values_max; }
    template <class V>
    bool scalar(V&& v) {
        if (!count()) return false;
        values_.emplace_back(std::forward<V>(v));
        return true;
    }
    bool open(bool) {
        if (!count() || base_depth_ + static_cast<std::int64_t>(open_.size()) + 1 > limits::json_depth_max)
            return false;
        open_.push_back(Frame{values_.size(), keys_.size()});
        return true;
    }
    std::int64_t base_depth_ = 0;
    std::int64_t values_count_ = 0;
    std::vector<json> values_;
    std::vector<std::string> keys_;
    std::vector<Frame> open_;
    std::vector<std::size_t> order_;  // end_object's sort, reused
};

// The JSON of a scenario as the generator and most people write it, read
// without nlohmann's lexer, which took two thirds of this parse (docs/performance.md
// "Scenario parse"): objects, arrays, strings of printable ASCII or
// well-formed UTF-8 without escapes, integers of at most 18 digits, true,
// false, null, and the four whitespace bytes. It sends `build` the events
// nlohmann's parser sends for the same text. Anything else (a comment, an
// escape, a control byte, a fraction or exponent, a longer number, a syntax
// error), or a check of `build` that fails (a limit, a duplicate key), stops
// it with false; the caller then reads the text again with nlohmann's
// parser, which gives the same document or the error it always gave.
class PlainScan {
public:
    PlainScan(std::string_view text, StackBuild& build)
        : p_(text.data()), end_(text.data() + text.size()), build_(build) {}

    bool run() {
        skip_space();
        while (true) {
            const Step step = value();
            if (step == Step::fail) return false;
            if (step == Step::opened) {
                if (!open_.back() && !key()) return false;
                continue;
            }
            const Step next = after_value();
            if (next != Step::opened) return next == Step::read;
        }
    }

private:
    // fail: not read here; read: a whole value; opened: a container that
    // is not empty, its first value (or key) next.
    enum class Step { fail, read, opened };

    void skip_space() {
        while (p_ != end_ && (*p_ == ' ' || *p_ == '\n' || *p_ == '\r' || *p_ == '\t')) ++p_;
    }
    Step value() {
        if (p_ == end_) return Step::fail;
        switch (*p_) {
            case '{': return open(false);
            case '[': return open(true);
            case '"': return string_token() && build_.string(token_) ? Step::read : Step::fail;
            case 't': return literal("true") && build_.boolean(true) ? Step::read : Step::fail;
            case 'f': return literal("false") && build_.boolean(false) ? Step::read : Step::fail;
            case 'n': return literal("null") && build_.null() ? Step::read : Step::fail;
            default: return number() ? Step::read : Step::fail;
        }
    }
    Step open(bool is_array) {
        ++p_;
        if (!(is_array ? build_.start_array() : build_.start_object())) return Step::fail;
        skip_space();
        if (p_ != end_ && *p_ == (is_array ? ']' : '}')) {
            ++p_;
            return (is_array ? build_.end_array() : build_.end_object()) ? Step::read : Step::fail;
        }
        open_.push_back(is_array);
        return Step::opened;
    }
    // After a value: the containers it closes, then a comma and the next key
    // (opened), or the end of the text after the root (read).
    Step after_value() {
        while (true) {
            skip_space();
            if (open_.empty()) return p_ == end_ ? Step::read : Step::fail;
            if (p_ == end_) return Step::fail;
            const bool in_array = open_.back();
            if (*p_ == ',') {
                ++p_;
                skip_space();
                return in_array || key() ? Step::opened : Step::fail;
            }
            if (*p_ != (in_array ? ']' : '}')) return Step::fail;
            ++p_;
            if (!(in_array ? build_.end_array() : build_.end_object())) return Step::fail;
            open_.pop_back();
        }
    }
    // A key, its colon and the spaces after it.
    bool key() {
        if (p_ == end_ || *p_ != '"' || !string_token() || !build_.key(token_)) return false;
        skip_space();
        if (p_ == end_ || *p_ != ':') return false;
        ++p_;
        skip_space();
        return true;
    }
    // The string at the quote at p_ as token_ (a view of the text), p_ past
    // its closing quote.
    bool string_token() {
        const char* start = ++p_;
        while (p_ != end_ && *p_ != '"') {
            const auto c = static_cast<unsigned char>(*p_);
            if (c == '\\' || c < 0x20) return false;
            if (c < 0x80) {
                ++p_;
                continue;
            }
            // Unicode's table 3-7, as nlohmann's lexer checks it.
            const std::size_t length = utf8_char_length(std::string_view(p_, static_cast<std::size_t>(end_ - p_)), 0);
            if (length == 0) return false;
            p_ += length;
        }
        if (p_ == end_) return false;
        token_ = std::string_view(start, static_cast<std::size_t>(p_ - start));
        ++p_;
        return true;
    }
    bool literal(std::string_view word) {
        if (static_cast<std::size_t>(end_ - p_) < word.size() || std::string_view(p_, word.size()) != word)
            return false;
        p_ += word.size();
        return true;
    }
    // An integer as nlohmann reads it: unsigned unless negative.
    bool number() {
        const bool negative = *p_ == '-';
        const char* digits = negative ? p_ + 1 : p_;
        const char* q = digits;
        std::uint64_t n = 0;
        while (q != end_ && *q >= '0' && *q <= '9') n = n * 10 + static_cast<std::uint64_t>(*q++ - '0');
        const auto count = q - digits;
        if (count == 0 || count > 18 || (count > 1 && *digits == '0')) return false;
        if (q != end_ && (*q == '.' || *q == 'e' || *q == 'E')) return false;
        p_ = q;
        if (negative) return build_.number_integer(-static_cast<std::int64_t>(n));
        return build_.number_unsigned(n);
    }

    const char* p_;
    const char* end_;
    StackBuild& build_;
    std::vector<bool> open_;  // the open containers, innermost last: true for an array
    std::string_view token_;
};

// A NUL byte: nlohmann's reader takes it for the end of the input and would
// ignore everything after it. Returns its offset.
std::optional<std::size_t> find_nul(std::string_view text) {
    const std::size_t at = text.find('\0');
    if (at == std::string_view::npos) return std::nullopt;
    return at;
}

}  // namespace

std::optional<json> parse_bounded(std::string_view text, const std::string& base, std::int64_t base_depth,
                                  std::optional<SyntaxError>& syntax, ScenarioJsonReader reader) {
    if (const auto nul = find_nul(text)) {
        syntax = SyntaxError{line_column(text, *nul),
                             "a NUL byte (\\0): JSON text cannot contain one; is this a binary file?"};
        return std::nullopt;
    }
    if (reader == ScenarioJsonReader::fast) {
        // A limit or a duplicate key stops the scan too: nlohmann's read
        // below reports it, or a syntax error before it that the scan does
        // not know.
        StackBuild fast(base_depth);
        if (PlainScan(text, fast).run()) return fast.take_document();
    }
    BoundedBuild watch(base, base_depth);
    json::sax_parse(text.begin(), text.end(), &watch, nlohmann::detail::input_format_t::json, true,
                    /*ignore_comments=*/true);
    if (watch.syntax_error()) {
        if (watch.out_of_range()) {
            syntax = SyntaxError{"", "JSON number out of range: a number is too large for a double (like 1e400)"};
            return std::nullopt;
        }
        std::string what = *watch.syntax_error();
        // nlohmann's text after its own position prefix says what was expected.
        if (const auto colon = what.find(": "); colon != std::string::npos) what = what.substr(colon + 2);
        // It quotes the token it was reading ("last read: '...'"), which can
        // be a whole 30 MB string: quote a few bytes of it, like every error.
        constexpr std::string_view last_read = "; last read: '";
        if (const auto at = what.find(last_read); at != std::string::npos) {
            const std::string token = what.substr(at + last_read.size());
            if (static_cast<std::int64_t>(token.size()) > limits::quoted_bytes_max)
                what = fmt::format("{}{}{}…' ({} bytes)", what.substr(0, at), last_read, clipped(token), token.size());
        }
        const std::size_t position = watch.syntax_position();
        syntax = SyntaxError{line_column(text, position == 0 ? 0 : position - 1), "JSON syntax error: " + what};
        return std::nullopt;
    }
    // The whole text was read: its document has at most json_values_max values.
    return watch.take_document();
}

}  // namespace leasescope::sim::scenario_detail
