# Finds Dear ImGui as Debian's libimgui-dev installs it (pkg-config module
# `imgui`, the GLFW and OpenGL 3 backends in its backends/ folder) and
# defines the target leasescope::imgui. A missing piece is a configure error
# naming the Debian package that brings it; the browser build defines the
# same target from ImGui's source package instead (app/web/CMakeLists.txt).
include(FindPackageHandleStandardArgs)
find_package(PkgConfig QUIET)
if(PkgConfig_FOUND)
  pkg_check_modules(PC_IMGUI QUIET imgui)
endif()
find_path(ImGui_INCLUDE_DIR imgui.h HINTS ${PC_IMGUI_INCLUDE_DIRS} PATH_SUFFIXES imgui)
find_path(ImGui_BACKENDS_DIR imgui_impl_glfw.h imgui_impl_opengl3.h
  HINTS ${ImGui_INCLUDE_DIR}/backends ${PC_IMGUI_INCLUDE_DIRS} PATH_SUFFIXES imgui/backends backends)
find_library(ImGui_LIBRARY imgui HINTS ${PC_IMGUI_LIBRARY_DIRS})
find_path(ImGui_STB_INCLUDE_DIR stb_image_write.h PATH_SUFFIXES stb)
find_library(ImGui_STB_LIBRARY stb)
find_package_handle_standard_args(ImGui
  REQUIRED_VARS ImGui_LIBRARY ImGui_INCLUDE_DIR ImGui_BACKENDS_DIR ImGui_STB_INCLUDE_DIR ImGui_STB_LIBRARY
  VERSION_VAR PC_IMGUI_VERSION
  REASON_FAILURE_MESSAGE "Dear ImGui with its GLFW/OpenGL 3 backends and stb are needed by the app: apt-get install libimgui-dev libstb-dev (tools/deps.sh does), or configure with -DLEASESCOPE_GUI=OFF to build without the app")
if(ImGui_FOUND AND NOT TARGET leasescope::imgui)
  add_library(leasescope::imgui UNKNOWN IMPORTED)
  set_target_properties(leasescope::imgui PROPERTIES
    IMPORTED_LOCATION ${ImGui_LIBRARY}
    INTERFACE_INCLUDE_DIRECTORIES "${ImGui_INCLUDE_DIR};${ImGui_BACKENDS_DIR};${ImGui_STB_INCLUDE_DIR}"
    INTERFACE_LINK_LIBRARIES ${ImGui_STB_LIBRARY})
endif()
mark_as_advanced(ImGui_INCLUDE_DIR ImGui_BACKENDS_DIR ImGui_LIBRARY ImGui_STB_INCLUDE_DIR ImGui_STB_LIBRARY)
