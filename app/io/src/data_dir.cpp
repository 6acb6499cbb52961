// Finding the shared data folders beside an installed program or in the source tree (data_dir.hpp).
#include "leasescope/io/data_dir.hpp"

#include <filesystem>
#include <system_error>

namespace fs = std::filesystem;

namespace leasescope::io {

std::string executable_dir() {
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (ec) return {};
    return exe.parent_path().string();
}

std::optional<std::string> installed_data_dir() {
    const std::string dir = executable_dir();
    if (dir.empty()) return std::nullopt;
    std::error_code ec;
    // lexically_normal: messages show /usr/share/leasescope, not /usr/bin/../share/leasescope.
    const fs::path data = (fs::path(dir) / ".." / "share" / "leasescope").lexically_normal();
    if (!fs::is_directory(data / "scenarios", ec)) return std::nullopt;
    return data.string();
}

std::string data_path(const std::string& name, const std::string& source_fallback) {
    if (auto data = installed_data_dir()) return (fs::path(*data) / name).string();
    return source_fallback;
}

}  // namespace leasescope::io
