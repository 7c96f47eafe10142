// SPDX-License-Identifier: GPL-3.0-or-later
#include "nvf1writer.h"

#include <QFile>
#include <cstring>
#include <stdexcept>
#include <unistd.h>

namespace nsw::tracegen {

namespace {

template <typename T> void putLe(unsigned char* p, T v)
{
    using U = std::make_unsigned_t<T>;
    auto u = U(v);
    for (std::size_t i = 0; i < sizeof(T); ++i) {
        p[i] = static_cast<unsigned char>(u & 0xFF);
        u = U(u >> 8);
    }
}

[[noreturn]] void ioFail(const QString& path, const char* what)
{
    throw std::runtime_error(QStringLiteral("%1: %2").arg(path, QLatin1String(what)).toStdString());
}

} // namespace

void Nvf1Writer::encode(const Nvf1Record& r, unsigned char out[kNvf1RecordSize])
{
    putLe(out + 0, r.hostTsNs);
    putLe(out + 8, r.fieldId);
    putLe(out + 12, r.scopeId);
    putLe(out + 16, r.timestampUs);
    putLe(out + 24, r.latencyUs);
    putLe(out + 32, r.valueType);
    putLe(out + 36, r.nvmlReturn);
    putLe(out + 40, r.value);
}

Nvf1Writer::Nvf1Writer(const QString& path, Nvf1Faults faults)
    : m_path(path)
    , m_faults(faults)
{
    m_file = std::fopen(QFile::encodeName(path).constData(), "wb");
    if (!m_file)
        ioFail(path, "cannot create");
    std::setvbuf(m_file, nullptr, _IOFBF, 1 << 20);
    unsigned char h[kNvf1HeaderSize];
    std::memcpy(h, faults.badMagic ? "NVF0" : "NVF1", 4);
    putLe<std::uint16_t>(h + 4, 1);
    putLe<std::uint16_t>(h + 6, 40);
    putLe<std::int32_t>(h + 8, 8);
    if (std::fwrite(h, 1, sizeof h, m_file) != sizeof h)
        ioFail(path, "write failed");
}

Nvf1Writer::~Nvf1Writer()
{
    try {
        close();
    } catch (...) { }
}

void Nvf1Writer::write(const Nvf1Record& r)
{
    unsigned char buf[kNvf1RecordSize];
    ++m_count;
    if (m_faults.badReturnEvery > 0 && m_count % std::uint64_t(m_faults.badReturnEvery) == 0) {
        // NVML leaves the value undefined for a failed field; the recorder writes whatever was in the struct.
        Nvf1Record bad = r;
        bad.nvmlReturn = 3;
        bad.value = 0xDEADBEEFCAFEF00DULL ^ m_count;
        encode(bad, buf);
        ++m_badReturns;
    } else {
        encode(r, buf);
    }
    if (std::fwrite(buf, 1, sizeof buf, m_file) != sizeof buf)
        ioFail(m_path, "write failed");
}

void Nvf1Writer::close()
{
    if (!m_file)
        return;
    std::FILE* f = m_file;
    m_file = nullptr;
    if (std::fflush(f) != 0) {
        std::fclose(f);
        ioFail(m_path, "write failed");
    }
    if (m_faults.truncateLast && m_count > 0) {
        const long size = long(kNvf1HeaderSize) + long(m_count) * kNvf1RecordSize;
        if (ftruncate(fileno(f), size - kNvf1RecordSize / 2) != 0) {
            std::fclose(f);
            ioFail(m_path, "truncate failed");
        }
    }
    if (std::fclose(f) != 0)
        ioFail(m_path, "close failed");
}

} // namespace nsw::tracegen
