// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <atomic>
#include <memory>

namespace nsw {

/// A cancellation flag shared between whoever asked for a job and the job itself (hotspot passes the same kind of
/// predicate into every job). Copies share the flag. A child token is cancelled with its parent but can also be
/// cancelled alone, so a job can stop its own workers (on an error) without cancelling its caller.
class CancelToken
{
public:
    CancelToken()
        : m_node(std::make_shared<Node>())
    { }

    /// A token that no caller can cancel (for synchronous callers that never cancel).
    static CancelToken never() { return CancelToken(); }

    void cancel() const noexcept { m_node->flag.store(true, std::memory_order_relaxed); }

    bool isCancelled() const noexcept
    {
        for (const Node* n = m_node.get(); n; n = n->parent.get())
            if (n->flag.load(std::memory_order_relaxed))
                return true;
        return false;
    }

    CancelToken child() const
    {
        CancelToken c;
        c.m_node->parent = m_node;
        return c;
    }

private:
    struct Node
    {
        std::atomic<bool> flag { false };
        std::shared_ptr<const Node> parent;
    };
    std::shared_ptr<Node> m_node;
};

/// Checks a token every @p Stride calls: cheap enough for a loop over millions of rows, prompt enough for the
/// 100 ms a superseded request has to stop in.
template <unsigned Stride = 4096> class CancelPoll
{
public:
    explicit CancelPoll(const CancelToken& token)
        : m_token(token)
    { }
    /// True when the job should stop; reads the flag once per Stride calls.
    bool operator()()
    {
        if (++m_count % Stride != 0)
            return m_stopped;
        m_stopped = m_token.isCancelled();
        return m_stopped;
    }
    bool stopped() const { return m_stopped || m_token.isCancelled(); }

private:
    const CancelToken& m_token;
    unsigned m_count = 0;
    bool m_stopped = false;
};

} // namespace nsw
