#pragma once
// The interface through which a long streamed run hands its finished runs'
// outcomes out of memory and reads them back for the summary line; the
// simulator calls it, the shell (app/cli) keeps the bytes (a temporary file).
#include <cstddef>
#include <functional>
#include <span>

#include "leasescope/engine/elector.hpp"

namespace leasescope::sim {

class OutcomeSpill {
public:
    virtual ~OutcomeSpill() = default;

    // One spill: put() for each node with final outcomes held, in increasing
    // node order, then end(). A node's outcomes are its runs following the
    // ones of its earlier put()s, in run order. false: they could not be kept
    // (the run stops; the outcomes stay in memory).
    virtual bool put(NodeIndex node, std::span<const RunOutcome> outcomes) = 0;
    virtual bool end() = 0;

    // Reading back, once every spill is done: rewind() starts a pass, then
    // read() is called for nodes in increasing order and calls `each` with
    // that node's spilled outcomes, in run order, in pieces. false: they
    // could not be read.
    virtual bool rewind() = 0;
    virtual bool read(NodeIndex node, const std::function<void(std::span<const RunOutcome>)>& each) = 0;
};

}  // namespace leasescope::sim
