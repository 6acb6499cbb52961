# What `cmake --install` puts where, the exported CMake package
# (find_package(LeaseScope): LeaseScope::engine, LeaseScope::sim), the
# pkg-config file, and the Debian package made by `cpack -G DEB`.
# The libraries go to Debian's multiarch folder, lib/<triplet>, which is what
# GNUInstallDirs gives for the prefix /usr of the Debian package. It fixes the
# folder when configuring, for the prefix known then (/usr/local by default:
# plain lib/), while the .deb's /usr and `cmake --install --prefix` come
# later; Debian's loader, pkg-config and find_package look in lib/<triplet>
# under /usr/local and any other prefix too. -DCMAKE_INSTALL_LIBDIR=... still
# wins; a cached plain lib/ that GNUInstallDirs chose itself is replaced.
if(CMAKE_LIBRARY_ARCHITECTURE AND EXISTS /etc/debian_version)
  get_property(leasescope_libdir_help CACHE CMAKE_INSTALL_LIBDIR PROPERTY HELPSTRING)
  if(NOT DEFINED CMAKE_INSTALL_LIBDIR
     OR (CMAKE_INSTALL_LIBDIR STREQUAL "lib" AND leasescope_libdir_help STREQUAL "Object code libraries (lib)"))
    set(CMAKE_INSTALL_LIBDIR lib/${CMAKE_LIBRARY_ARCHITECTURE}
      CACHE PATH "Object code libraries (lib/${CMAKE_LIBRARY_ARCHITECTURE})" FORCE)
  endif()
endif()
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(LEASESCOPE_DATADIR ${CMAKE_INSTALL_DATADIR}/leasescope)

# ---- Programs and their data ----
# The programs look for ../share/leasescope beside their own folder
# (app/io/src/data_dir.cpp), so the layout below is what they expect.
install(TARGETS leasescope-cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/scenarios/ DESTINATION ${LEASESCOPE_DATADIR}/scenarios
  FILES_MATCHING PATTERN "*.json")
install(DIRECTORY ${PROJECT_SOURCE_DIR}/tests/golden/ DESTINATION ${LEASESCOPE_DATADIR}/golden
  FILES_MATCHING PATTERN "*.jsonl")
install(DIRECTORY ${PROJECT_SOURCE_DIR}/assets/ DESTINATION ${LEASESCOPE_DATADIR}/assets)

# The schema and the man pages come from the programs themselves, at build time.
set(schema_file ${PROJECT_BINARY_DIR}/schema/scenario.schema.json)
add_custom_command(OUTPUT ${schema_file}
  COMMAND ${CMAKE_COMMAND} -E make_directory ${PROJECT_BINARY_DIR}/schema
  COMMAND leasescope-cli schema > ${schema_file}
  DEPENDS leasescope-cli VERBATIM)
set(man_pages ${PROJECT_BINARY_DIR}/man/leasescope-cli.1)
add_custom_command(OUTPUT ${PROJECT_BINARY_DIR}/man/leasescope-cli.1
  COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:leasescope-cli> -DNAME=leasescope-cli -DVERSION=${PROJECT_VERSION}
    "-DSUMMARY=simulate, check and compare Redis lease scenarios"
    -DOUT=${PROJECT_BINARY_DIR}/man/leasescope-cli.1 -P ${PROJECT_SOURCE_DIR}/cmake/man_from_help.cmake
  DEPENDS leasescope-cli ${PROJECT_SOURCE_DIR}/cmake/man_from_help.cmake VERBATIM)
if(TARGET leasescope)
  install(TARGETS leasescope RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  list(APPEND man_pages ${PROJECT_BINARY_DIR}/man/leasescope.1)
  add_custom_command(OUTPUT ${PROJECT_BINARY_DIR}/man/leasescope.1
    COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:leasescope> -DNAME=leasescope -DVERSION=${PROJECT_VERSION}
      "-DSUMMARY=replay Redis lease and leader-election scenarios on a timeline"
      -DOUT=${PROJECT_BINARY_DIR}/man/leasescope.1 -P ${PROJECT_SOURCE_DIR}/cmake/man_from_help.cmake
    DEPENDS leasescope ${PROJECT_SOURCE_DIR}/cmake/man_from_help.cmake VERBATIM)
  install(FILES ${PROJECT_SOURCE_DIR}/packaging/leasescope.desktop DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
  install(FILES ${PROJECT_SOURCE_DIR}/packaging/leasescope.svg
    DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps)
endif()
add_custom_target(leasescope_generated_docs ALL DEPENDS ${schema_file} ${man_pages})
install(FILES ${schema_file} DESTINATION ${LEASESCOPE_DATADIR}/schema)
install(FILES ${man_pages} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)

# ---- The libraries, their headers and the CMake package ----
install(TARGETS leasescope_engine leasescope_sim EXPORT LeaseScopeTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/engine/include/leasescope ${PROJECT_SOURCE_DIR}/sim/include/leasescope
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
set(LEASESCOPE_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/LeaseScope)
install(EXPORT LeaseScopeTargets NAMESPACE LeaseScope:: DESTINATION ${LEASESCOPE_CMAKEDIR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/LeaseScopeConfig.cmake.in
  ${PROJECT_BINARY_DIR}/LeaseScopeConfig.cmake INSTALL_DESTINATION ${LEASESCOPE_CMAKEDIR}
  PATH_VARS LEASESCOPE_DATADIR)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/LeaseScopeConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/LeaseScopeConfig.cmake ${PROJECT_BINARY_DIR}/LeaseScopeConfigVersion.cmake
  DESTINATION ${LEASESCOPE_CMAKEDIR})
# pkg-config: the prefix is found from the .pc file's own place, so the tree
# can be moved (a DESTDIR, a dpkg -x) and still work.
file(RELATIVE_PATH pc_to_prefix /${CMAKE_INSTALL_LIBDIR}/pkgconfig /)
configure_file(${PROJECT_SOURCE_DIR}/cmake/leasescope.pc.in ${PROJECT_BINARY_DIR}/leasescope.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/leasescope.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# ---- cpack -G DEB ----
set(CPACK_PACKAGE_NAME leasescope)
set(CPACK_PACKAGE_VENDOR "LeaseScope")
set(CPACK_PACKAGE_CONTACT "LeaseScope maintainers <leasescope@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "deterministic simulator and teaching tool for Redis leases")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_STRIP_FILES ON)
# The runtime libraries the programs link, as dpkg-shlibdeps finds them.
find_program(DPKG_SHLIBDEPS dpkg-shlibdeps)
if(DPKG_SHLIBDEPS)
  set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
else()
  set(CPACK_DEBIAN_PACKAGE_DEPENDS
    "libc6, libstdc++6, libgcc-s1, libssl3, libfmt9, libhiredis0.14, libglfw3, libepoxy0, libgl1, libfontconfig1, zlib1g")
endif()
# The static libraries and headers are for building against: their own
# headers and libraries come from these.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "fonts-nanum")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "nlohmann-json3-dev, libfmt-dev, libssl-dev, cmake, pkg-config, libgtest-dev")
include(CPack)
