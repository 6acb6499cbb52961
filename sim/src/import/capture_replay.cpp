// The lock's keys replayed as Redis would hold them, and what each line of
// the lock was (docs/model.md §19.3–§19.5): MONITOR shows the commands, not
// their replies, so the replies are reconstructed from the replayed keys.
#include <cstdlib>

#include <fmt/format.h>

#include "capture_internal.hpp"
#include "fit.hpp"
#include "monitor_scan.hpp"

namespace leasescope::sim::import::internal {
namespace {

// A key as Redis holds it: a string or a hash, and an absolute deadline in
// the server's milliseconds (rule 19.4.1).
struct Key {
    bool hash = false;
    std::string value;
    std::map<std::string, std::string> fields;
    std::optional<std::int64_t> deadline_ms;
};

// What one command or one script call did to the call's record.
struct Effects {
    bool wrote = false;                // created or re-wrote the record
    bool expiry = false;               // set its deadline (PEXPIRE and friends)
    bool deleted = false;              // removed it
    std::optional<std::int64_t> incr;  // the new value of another lock key INCRed
};

std::vector<std::string_view> views(const std::vector<std::string>& args) { return {args.begin(), args.end()}; }

std::int64_t now_ms_of(const KeptLine& k) { return k.server_us / 1000; }

// The token a record holds: a string's value, our store's `token` field, or
// the one field of a Redisson hash.
std::string record_token(const Key& key) {
    if (!key.hash) return key.value;
    const auto it = key.fields.find("token");
    if (it != key.fields.end()) return it->second;
    if (key.fields.size() == 1) return key.fields.begin()->first;
    return {};
}

bool holds(const Key& key, std::string_view token) {
    if (token.empty()) return false;
    if (!key.hash) return key.value == token;
    const auto it = key.fields.find("token");
    if (it != key.fields.end()) return it->second == token;
    return key.fields.count(std::string(token)) != 0;
}

class Replay {
public:
    Replay(const std::vector<std::string>& lock_keys, const ImportOptions& options,
           const std::vector<CaptureReport::Source>& sources);
    ReplayResult run(const std::vector<KeptLine>& lines, std::int64_t capture_end_us);

private:
    bool is_lock_key(std::string_view repr) const { return lock_keys_.count(repr) != 0; }
    Key* find(std::string_view repr);
    std::string node_of_client(const std::string& client) const;
    std::string node_for(const std::string& token, const std::string& client) const;
    Observation base(const KeptLine& k, ObservedOp op) const;
    void emit(Observation o);
    void purge(std::int64_t now_ms, std::int64_t wall_us, std::int32_t source);
    Effects apply(const std::vector<std::string>& args, std::int64_t now_ms, std::string_view record);
    void apply_set(const std::vector<std::string>& args, Cmd cmd, std::int64_t now_ms, Effects& e, bool is_record);
    void apply_expiry(const std::vector<std::string>& args, Cmd cmd, std::int64_t now_ms, Effects& e, bool is_record);
    void apply_hash(const std::vector<std::string>& args, Cmd cmd, Effects& e, bool is_record);
    void apply_incr(const std::vector<std::string>& args, Cmd cmd, Effects& e);
    void on_marker(const KeptLine& k);
    void plain(const KeptLine& k);
    Observation plain_observation(const KeptLine& k, Cmd cmd, const std::optional<Key>& before, const Effects& e);
    std::size_t call(const std::vector<KeptLine>& lines, std::size_t i);
    void script_observation(const KeptLine& k, const KnownScript& script, const std::vector<std::string>& argv,
                            const std::optional<Key>& before, const Effects& e);
    std::optional<std::int64_t> record_ttl(std::int64_t now_ms);
    std::optional<Key> record_copy();

    std::set<std::string, std::less<>> lock_keys_;
    std::string record_;
    const std::vector<CaptureReport::Source>& sources_;
    ScriptBook book_;
    std::map<std::string, Key, std::less<>> keys_;
    std::set<std::string, std::less<>> written_;  // lock keys written in the capture
    std::map<std::string, std::string> client_name_, client_owner_, names_, token_owner_;
    bool started_ = false;
    bool assumed_zero_ = false;
    bool counter_decided_ = false;                                // the first INCR was seen
    std::int64_t refused_ = 0;                                    // known script calls without a [lua] line
    std::map<std::string, std::int64_t, std::less<>> first_set_;  // a lock key's first SET, a number
    std::optional<Fencing> counter_base_;
    std::int64_t last_wall_us_ = 0;
    std::int64_t wall_shift_us_ = 0;  // wall - server time of the line being replayed
    std::vector<Observation> out_;
    std::vector<std::string> notes_;
    bool fencing_unfit_ = false;  // a note said so (rule 19.5.4)
};

Replay::Replay(const std::vector<std::string>& lock_keys, const ImportOptions& options,
               const std::vector<CaptureReport::Source>& sources)
    : lock_keys_(lock_keys.begin(), lock_keys.end()), record_(lock_keys.front()), sources_(sources) {
    for (const auto& [addr, node] : options.names) names_[addr] = node;
}

Key* Replay::find(std::string_view repr) {
    const auto it = keys_.find(repr);
    return it == keys_.end() ? nullptr : &it->second;
}

// Rule 19.5.1: CLIENT SETNAME, --name, an acquire script's owner, the address.
std::string Replay::node_of_client(const std::string& client) const {
    for (const auto* names : {&client_name_, &names_, &client_owner_}) {
        const auto it = names->find(client);
        if (it != names->end()) return it->second;
    }
    return client;
}

std::string Replay::node_for(const std::string& token, const std::string& client) const {
    if (!token.empty()) {
        const auto it = token_owner_.find(token);
        if (it != token_owner_.end()) return it->second;
    }
    return node_of_client(client);
}

Observation Replay::base(const KeptLine& k, ObservedOp op) const {
    Observation o;
    o.wall_us = k.wall_us;
    o.source = k.source;
    o.line = k.line;
    o.op = op;
    return o;
}

// Rule 19.5.4: what enters the history fits a trace. Every node name (a
// SETNAME, --name, an owner argument, an address) passes here, so it is
// made text here and only here.
void Replay::emit(Observation o) {
    o.node = fit_name(o.node);
    o.token = fit_token(o.token);
    fit_fencing(o.fencing, "a", fencing_unfit_, notes_);
    if (o.wall_us < last_wall_us_) o.wall_us = last_wall_us_;
    last_wall_us_ = o.wall_us;
    out_.push_back(std::move(o));
}

// Rules 19.4.2 and 19.4.4: keys past their deadline are gone; the record's
// passing is an `expire` at its deadline.
void Replay::purge(std::int64_t now_ms, std::int64_t wall_us, std::int32_t source) {
    for (auto it = keys_.begin(); it != keys_.end();) {
        const Key& key = it->second;
        if (!key.deadline_ms || now_ms <= *key.deadline_ms) {
            ++it;
            continue;
        }
        if (it->first == record_ && started_) {
            Observation o;
            o.op = ObservedOp::expire;
            o.source = source;
            // Valid while now <= when: gone from the next millisecond on.
            o.wall_us = std::min(wall_us, (*key.deadline_ms + 1) * 1000 + wall_shift_us_);
            o.outcome = Outcome::expired;
            const std::string token = record_token(key);
            o.token = redis_repr(token);
            const auto owner = token_owner_.find(o.token);
            const auto field = key.fields.find("owner");
            o.node = owner != token_owner_.end() ? owner->second : field != key.fields.end() ? field->second : "";
            emit(std::move(o));
        }
        it = keys_.erase(it);
    }
}

// Rule 19.4.1: SET and its kin, as Redis 7.0 setGenericCommand.
void Replay::apply_set(const std::vector<std::string>& args, Cmd cmd, std::int64_t now_ms, Effects& e, bool is_record) {
    const std::string key = redis_repr(args[1]);
    Key* existing = find(key);
    Key next;
    if (cmd == Cmd::set) {
        const SetOptions o = set_options(views(args));
        const std::optional<std::int64_t> deadline = o.px_ms ? checked_add(now_ms, *o.px_ms) : std::nullopt;
        if (o.bad || (o.px_ms && !deadline) || (o.nx && existing) || (o.xx && !existing)) return;
        next.value = args[2];
        if (o.px_ms) next.deadline_ms = deadline;
        if (o.at_ms) next.deadline_ms = *o.at_ms;
        if (o.keepttl && existing) next.deadline_ms = existing->deadline_ms;
    } else if (cmd == Cmd::setnx) {
        if (existing) return;
        next.value = args[2];
    } else if (cmd == Cmd::getset) {
        next.value = args[2];
    } else {  // SETEX key seconds value, PSETEX key ms value
        const std::optional<std::int64_t> n = parse_int(args[2]);
        const std::optional<std::int64_t> ms =
            n && *n > 0 ? checked_mul(*n, cmd == Cmd::setex ? 1000 : 1) : std::nullopt;
        const std::optional<std::int64_t> deadline = ms ? checked_add(now_ms, *ms) : std::nullopt;
        if (!deadline || args.size() < 4) return;
        next.value = args[3];
        next.deadline_ms = deadline;
    }
    if (!is_record && !written_.count(key) && !next.deadline_ms) {
        if (const std::optional<std::int64_t> v = parse_int(next.value)) first_set_[key] = *v;
    }
    written_.insert(key);
    keys_[key] = std::move(next);
    if (is_record) e.wrote = true;
}

void Replay::apply_expiry(const std::vector<std::string>& args, Cmd cmd, std::int64_t now_ms, Effects& e,
                          bool is_record) {
    const std::string key = redis_repr(args[1]);
    Key* existing = find(key);
    if (!existing) return;
    if (cmd == Cmd::persist) {
        existing->deadline_ms.reset();
        return;
    }
    const std::optional<std::int64_t> n = args.size() >= 3 ? parse_int(args[2]) : std::nullopt;
    if (!n) return;
    const bool seconds = cmd == Cmd::expire || cmd == Cmd::expireat;
    const bool at = cmd == Cmd::pexpireat || cmd == Cmd::expireat;
    // A time that overflows is refused and changes nothing (expireGenericCommand
    // in src/expire.c).
    const std::optional<std::int64_t> ms = checked_mul(*n, seconds ? 1000 : 1);
    const std::optional<std::int64_t> deadline = ms ? checked_add(at ? 0 : now_ms, *ms) : std::nullopt;
    if (!deadline) return;
    const std::int64_t when = *deadline;
    if (when <= now_ms) {  // Redis deletes a key given a deadline in the past
        keys_.erase(key);
        if (is_record) e.deleted = true;
        return;
    }
    existing->deadline_ms = when;
    if (is_record) e.expiry = true;
}

void Replay::apply_hash(const std::vector<std::string>& args, Cmd cmd, Effects& e, bool is_record) {
    const std::string key = redis_repr(args[1]);
    Key* existing = find(key);
    if (existing && !existing->hash) return;  // WRONGTYPE
    if (cmd == Cmd::hdel) {
        if (!existing) return;
        for (std::size_t i = 2; i < args.size(); ++i) existing->fields.erase(args[i]);
        if (existing->fields.empty()) {
            keys_.erase(key);
            if (is_record) e.deleted = true;
        }
        return;
    }
    Key& k = keys_[key];
    k.hash = true;
    bool wrote = false;
    if (cmd == Cmd::hincrby && args.size() >= 4) {
        // An increment that overflows is refused (hincrbyCommand in src/t_hash.c).
        const auto field = k.fields.find(args[2]);
        const std::int64_t old = field == k.fields.end() ? 0 : parse_int(field->second).value_or(0);
        const std::optional<std::int64_t> sum = checked_add(old, parse_int(args[3]).value_or(0));
        if (sum) k.fields[args[2]] = std::to_string(*sum);
        wrote = sum.has_value();
    } else if (cmd == Cmd::hsetnx && args.size() >= 4) {
        wrote = k.fields.emplace(args[2], args[3]).second;
    } else {
        for (std::size_t i = 2; i + 1 < args.size(); i += 2) k.fields[args[i]] = args[i + 1];
        wrote = args.size() >= 4;
    }
    if (k.fields.empty()) keys_.erase(key);
    written_.insert(key);
    if (is_record && wrote) e.wrote = true;
}

// Rule 19.4.3: the counter; when it is missing and was never written in the
// capture, its value before the capture is assumed 0.
void Replay::apply_incr(const std::vector<std::string>& args, Cmd cmd, Effects& e) {
    const std::string key = redis_repr(args[1]);
    Key* existing = find(key);
    if (existing && existing->hash) return;
    if (!counter_decided_) {
        counter_decided_ = true;
        const auto set = first_set_.find(key);
        if (set != first_set_.end()) {
            counter_base_ = set->second;
        } else if (!existing && !written_.count(key)) {
            assumed_zero_ = true;
        }
    }
    std::int64_t by = 1;
    if ((cmd == Cmd::incrby || cmd == Cmd::decrby) && args.size() >= 3) by = parse_int(args[2]).value_or(0);
    // An increment or decrement that overflows is refused and writes nothing
    // (incrDecrCommand in src/t_string.c).
    const std::optional<std::int64_t> step =
        cmd == Cmd::decr || cmd == Cmd::decrby ? checked_mul(by, -1) : std::optional<std::int64_t>(by);
    const std::optional<std::int64_t> sum =
        step ? checked_add(existing ? parse_int(existing->value).value_or(0) : 0, *step) : std::nullopt;
    if (!sum) return;
    const std::int64_t value = *sum;
    Key& k = keys_[key];
    k.value = std::to_string(value);
    written_.insert(key);
    e.incr = value;
}

Effects Replay::apply(const std::vector<std::string>& args, std::int64_t now_ms, std::string_view record) {
    Effects e;
    const Cmd cmd = command_of(args[0]);
    if (args.size() < 2) return e;
    if (cmd == Cmd::del || cmd == Cmd::unlink) {
        for (std::size_t i = 1; i < args.size(); ++i) {
            const std::string key = redis_repr(args[i]);
            if (is_lock_key(key) && keys_.erase(key) != 0 && key == record) e.deleted = true;
        }
        return e;
    }
    const std::string key = redis_repr(args[1]);
    if (!is_lock_key(key)) return e;
    const bool is_record = key == record;
    switch (cmd) {
        case Cmd::set:
        case Cmd::setnx:
        case Cmd::setex:
        case Cmd::psetex:
        case Cmd::getset:
            if (args.size() >= 3) apply_set(args, cmd, now_ms, e, is_record);
            break;
        case Cmd::getdel:
            if (keys_.erase(key) != 0 && is_record) e.deleted = true;
            break;
        case Cmd::pexpire:
        case Cmd::expire:
        case Cmd::pexpireat:
        case Cmd::expireat:
        case Cmd::persist: apply_expiry(args, cmd, now_ms, e, is_record); break;
        case Cmd::hset:
        case Cmd::hmset:
        case Cmd::hsetnx:
        case Cmd::hincrby:
        case Cmd::hdel: apply_hash(args, cmd, e, is_record); break;
        case Cmd::incr:
        case Cmd::incrby:
        case Cmd::decr:
        case Cmd::decrby:
            if (!is_record) apply_incr(args, cmd, e);
            break;
        default: break;
    }
    return e;
}

std::optional<std::int64_t> Replay::record_ttl(std::int64_t now_ms) {
    const Key* r = find(record_);
    if (!r || !r->deadline_ms) return std::nullopt;
    return *r->deadline_ms - now_ms;
}

std::optional<Key> Replay::record_copy() {
    const Key* r = find(record_);
    if (!r) return std::nullopt;
    return *r;
}

// Rule 19.3.1–2 and 19.3.6: what a client's own command on the lock was.
Observation Replay::plain_observation(const KeptLine& k, Cmd cmd, const std::optional<Key>& before, const Effects& e) {
    const std::vector<std::string>& a = k.ml.args;
    const std::int64_t now_ms = now_ms_of(k);
    const bool on_record = !k.ml.lua && a.size() >= 2 && redis_repr(a[1]) == record_;
    Observation o = base(k, ObservedOp::undecided);
    o.node = node_of_client(k.ml.client);
    o.library = "plain";
    if (on_record && cmd == Cmd::set && set_is_acquire(set_options(views(a)))) {
        o.op = ObservedOp::acquire;
        o.token = redis_repr(a[2]);
        o.node = node_for(o.token, k.ml.client);
        o.outcome = e.wrote ? Outcome::acquired : Outcome::busy;
        o.ttl_ms = e.wrote                         ? record_ttl(now_ms)
                   : before && before->deadline_ms ? std::optional<std::int64_t>(*before->deadline_ms - now_ms)
                                                   : std::nullopt;
        if (e.wrote) token_owner_.emplace(o.token, o.node);
    } else if (on_record && a.size() == 3 && (cmd == Cmd::pexpire || cmd == Cmd::expire)) {
        o.op = ObservedOp::extend;
        o.outcome = e.expiry ? Outcome::renewed : Outcome::lost;
        if (e.expiry) o.ttl_ms = record_ttl(now_ms);
    } else if (on_record && a.size() == 2 && (cmd == Cmd::del || cmd == Cmd::unlink)) {
        o.op = ObservedOp::release;
        o.outcome = e.deleted ? Outcome::released : Outcome::not_owner;
    } else if (on_record && a.size() == 2 && cmd == Cmd::get) {
        o.op = ObservedOp::status;
        o.outcome = before ? Outcome::held : Outcome::vacant;
    } else {
        o.why = Detail::other_command;
    }
    return o;
}

void Replay::plain(const KeptLine& k) {
    const std::vector<std::string>& a = k.ml.args;
    const Cmd cmd = command_of(a[0]);
    if (cmd == Cmd::client) {
        client_name_[k.ml.client] = a[2];
        return;
    }
    if (cmd == Cmd::script) {
        book_.load(a[2]);
        return;
    }
    const std::int64_t now_ms = now_ms_of(k);
    const Key* r = find(record_);
    const bool near_deadline = r && r->deadline_ms && std::llabs(now_ms - *r->deadline_ms) <= 1;
    purge(now_ms, k.wall_us, k.source);
    const std::optional<Key> before = record_copy();
    const Effects e = apply(a, now_ms, record_);
    Observation o = plain_observation(k, cmd, before, e);
    const bool decidable = o.op != ObservedOp::undecided;
    const std::string node = o.node;
    emit(std::move(o));
    if (decidable && near_deadline) {
        Observation b = base(k, ObservedOp::undecided);
        b.node = node;
        b.library = "plain";
        b.why = Detail::expiry_boundary;
        emit(std::move(b));
    }
}

// Rule 19.3.4: a known script's outcome from what it wrote to the record,
// else from the replayed record (a holder asking again, a release kept).
void Replay::script_observation(const KeptLine& k, const KnownScript& script, const std::vector<std::string>& argv,
                                const std::optional<Key>& before, const Effects& e) {
    const auto arg = [&argv](std::int32_t pos) {
        return pos > 0 && static_cast<std::size_t>(pos) <= argv.size() ? argv[static_cast<std::size_t>(pos) - 1]
                                                                       : std::string();
    };
    const std::string token = arg(script.token_argv);
    if (script.owner_argv > 0 && !client_name_.count(k.ml.client) && !names_.count(k.ml.client)) {
        client_owner_[k.ml.client] = arg(script.owner_argv);
    }
    const std::int64_t now_ms = now_ms_of(k);
    const bool held = before && holds(*before, token);
    Observation o = base(k, ObservedOp::undecided);
    o.token = redis_repr(token);
    o.node = node_for(o.token, k.ml.client);
    o.library = std::string(script.library);
    switch (script.op) {
        case ScriptOp::acquire:
            o.op = ObservedOp::acquire;
            o.outcome = e.wrote || held ? Outcome::acquired : Outcome::busy;
            if (o.outcome == Outcome::busy) {
                if (before && before->deadline_ms) o.ttl_ms = *before->deadline_ms - now_ms;
                break;
            }
            o.ttl_ms = record_ttl(now_ms);
            if (e.incr) {
                o.fencing = *e.incr;
            } else if (held && before->hash && before->fields.count("fencing")) {
                o.fencing = parse_int(before->fields.at("fencing"));
            }
            token_owner_.emplace(o.token, o.node);
            break;
        case ScriptOp::extend:
            o.op = ObservedOp::extend;
            o.outcome = e.expiry && find(record_) ? Outcome::renewed : Outcome::lost;
            if (o.outcome == Outcome::renewed) o.ttl_ms = record_ttl(now_ms);
            break;
        case ScriptOp::release:
            o.op = ObservedOp::release;
            o.outcome = e.deleted ? Outcome::released : e.expiry || held ? Outcome::kept : Outcome::not_owner;
            break;
        case ScriptOp::status:
            o.op = ObservedOp::status;
            o.outcome = before ? Outcome::held : Outcome::vacant;
            break;
        case ScriptOp::validate:
            o.op = ObservedOp::validate;
            o.outcome = held ? Outcome::current : before ? Outcome::stale : Outcome::vacant;
            break;
        case ScriptOp::none: return;  // our store's expire and failover: their writes only
    }
    emit(std::move(o));
}

// Rules 19.1.3 and 19.3.3–5: an EVAL/EVALSHA/FCALL and its [lua] lines.
// Returns the index after the call's last line.
std::size_t Replay::call(const std::vector<KeptLine>& lines, std::size_t i) {
    std::size_t end = i + 1;
    while (end < lines.size() && lines[end].kind == KeptLine::Kind::command && lines[end].ml.lua) ++end;
    const KeptLine& k = lines[i];
    const std::vector<std::string>& a = k.ml.args;
    const Cmd cmd = command_of(a[0]);
    const KeySpan span = key_span(cmd, a.size(), a.size() > 2 ? std::string_view(a[2]) : std::string_view());
    ScriptBook::Match m{-1, cmd != Cmd::evalsha};
    if (cmd == Cmd::eval && a.size() >= 2) m = book_.by_body(a[1]);
    if (cmd == Cmd::evalsha && a.size() >= 2) m = book_.by_sha(a[1]);
    const KnownScript* script = m.index >= 0 ? &known_scripts()[static_cast<std::size_t>(m.index)] : nullptr;
    std::string record = record_;
    if (script && span.first + static_cast<std::size_t>(script->lock_key_index) < span.last) {
        record = redis_repr(a[span.first + static_cast<std::size_t>(script->lock_key_index)]);
    }
    if (script && end == i + 1) {  // rule 19.3.4: no [lua] line, so the server refused it
        ++refused_;
        return end;
    }
    purge(now_ms_of(k), k.wall_us, k.source);
    const std::optional<Key> before = record_copy();
    Effects e;
    for (std::size_t j = i + 1; j < end; ++j) {
        const Effects one = apply(lines[j].ml.args, now_ms_of(lines[j]), record);
        e.wrote = e.wrote || one.wrote;
        e.expiry = e.expiry || one.expiry;
        e.deleted = e.deleted || one.deleted;
        if (one.incr) e.incr = one.incr;
    }
    if (script) {
        const std::size_t first_argv = std::min(std::max(span.last, std::size_t{3}), a.size());
        const std::vector<std::string> argv(a.begin() + static_cast<std::ptrdiff_t>(first_argv), a.end());
        script_observation(k, *script, argv, before, e);
        return end;
    }
    Observation o = base(k, ObservedOp::undecided);
    o.node = node_of_client(k.ml.client);
    o.why = m.body_seen ? Detail::unrecognised_script : Detail::unknown_sha;
    if (cmd == Cmd::eval && a.size() >= 2) o.sha = sha1_hex(a[1]);
    if (cmd == Cmd::evalsha && a.size() >= 2) {
        o.sha = a[1];
        for (char& c : o.sha) c = c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
    }
    emit(std::move(o));
    return end;
}

// Rules 19.1.2, 19.1.4–5 and 19.4.6: a gap or a kept clock step; before the
// lock's first line they only leave a note.
void Replay::on_marker(const KeptLine& k) {
    const std::string where = fmt::format("{}:{}", sources_[static_cast<std::size_t>(k.source)].file, k.line);
    if (k.kind == KeptLine::Kind::clock_step) {
        notes_.push_back(
            fmt::format("{}: the server's clock went back {}; kept (--clock-steps keep)", where,
                        k.step_ms == 0 ? std::string("less than 1 ms") : fmt::format("{} ms", -k.step_ms)));
        purge(now_ms_of(k), k.wall_us, k.source);  // with the time and shift before the step
        // Shown once anything of the lock is: the server times after it are
        // earlier than those before (rule 19.1.4).
        if (!started_ && out_.empty()) return;
        Observation o = base(k, ObservedOp::clock_step);
        o.step_ms = k.step_ms;
        emit(std::move(o));
        return;
    }
    notes_.push_back(
        fmt::format("{}: nothing is known from {:.3f} s to this line (a gap in the capture); what "
                    "follows is replayed from the keys before it",
                    where, static_cast<double>(k.wall_us) / 1e6));
    if (!started_) return;
    purge(now_ms_of(k), k.wall_us, k.source);
    Observation o = base(k, ObservedOp::undecided);
    o.why = Detail::capture_gap;
    emit(std::move(o));
}

ReplayResult Replay::run(const std::vector<KeptLine>& lines, std::int64_t capture_end_us) {
    for (std::size_t i = 0; i < lines.size();) {
        const KeptLine& k = lines[i];
        if (k.kind != KeptLine::Kind::command) {
            on_marker(k);
            ++i;
            continue;
        }
        wall_shift_us_ = k.wall_us - k.server_us;
        if (k.candidate >= 0) started_ = true;
        if (!k.ml.lua && is_call(command_of(k.ml.args[0]))) {
            i = call(lines, i);
            continue;
        }
        plain(k);
        ++i;
    }
    if (!lines.empty()) {
        purge((capture_end_us - wall_shift_us_) / 1000, capture_end_us, lines.back().source);
    }
    ReplayResult result;
    result.observations = std::move(out_);
    result.counter_base = counter_base_;
    result.notes = std::move(notes_);
    if (assumed_zero_) result.notes.emplace_back("fencing assumes the counter was 0 when the capture began");
    if (refused_ > 0) {
        result.notes.push_back(
            fmt::format("{} calls of known scripts show no [lua] line: the server refused them "
                        "(NOSCRIPT), so they are no events",
                        refused_));
    }
    return result;
}

}  // namespace
}  // namespace leasescope::sim::import::internal

namespace leasescope::sim::import::internal {

ReplayResult replay_lock(const std::vector<KeptLine>& lines, const std::vector<std::string>& lock_keys,
                         const ImportOptions& options, const std::vector<CaptureReport::Source>& sources,
                         std::int64_t capture_end_us) {
    Replay replay(lock_keys, options, sources);
    return replay.run(lines, capture_end_us);
}

}  // namespace leasescope::sim::import::internal
