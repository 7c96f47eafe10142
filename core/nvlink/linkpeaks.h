// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <vector>

namespace nsw {

/// Peak NVLink bandwidth of one GPU model, per link and direction (decimal GB/s).
struct LinkPeakEntry
{
    QString pattern; ///< case-insensitive substring of the GPU or chip name ("H100", "GH100")
    int links = 0;
    double gbpsPerLink = 0; ///< per direction
    double gpuGbps() const { return links * gbpsPerLink; }
    bool operator==(const LinkPeakEntry&) const = default;
};

/// The per-GPU-model table used for "% of peak" (NVF1) and for GB/s of nsys GPU metrics (which are % of peak).
/// Users edit it; it lives as JSON in the config folder.
class LinkPeakTable
{
public:
    /// NVLink generations of the data-centre GPUs: P100 4×20, V100 6×25, A100 12×25, H100/H200 18×25,
    /// B200 18×50 GB/s per direction (A800/H800 export parts have 8 links).
    static LinkPeakTable defaults();
    /// The user's table from the config folder, or the defaults when there is none or it is unreadable.
    static LinkPeakTable load(QString* warning = nullptr);
    static QString configPath();

    /// Writes atomically to @p path (default: configPath()); returns an error naming the file, or "".
    QString save(const QString& path = {}) const;
    QByteArray toJson() const;
    /// Parses toJson()'s format; returns false and sets @p error on a malformed document.
    static bool fromJson(const QByteArray& json, LinkPeakTable& out, QString* error);

    /// First entry whose pattern occurs in @p gpuName, or nullptr.
    const LinkPeakEntry* match(const QString& gpuName) const;
    const std::vector<LinkPeakEntry>& entries() const { return m_entries; }
    void setEntries(std::vector<LinkPeakEntry> entries) { m_entries = std::move(entries); }
    bool operator==(const LinkPeakTable&) const = default;

private:
    std::vector<LinkPeakEntry> m_entries;
};

} // namespace nsw
