# A profile-guided build of the simulator (tools/pgo.sh; docs/performance.md,
# "A profile-guided build"). LEASESCOPE_PGO is OFF by default. `generate`
# builds the engine and sim libraries instrumented: every program linking
# them writes its counts under LEASESCOPE_PGO_DIR when it exits. `use`
# compiles the two libraries with those counts (GCC's -fprofile-use): the
# same code, laid out and inlined for the paths the training took. Only the
# two libraries: the simulator is where the time goes, and the rest keeps
# its ordinary build. The counts name each object by its path, so `use`
# must be configured in the build folder that `generate` ran in.
set(LEASESCOPE_PGO OFF CACHE STRING "Profile-guided build of engine and sim: OFF, generate or use (tools/pgo.sh)")
set_property(CACHE LEASESCOPE_PGO PROPERTY STRINGS OFF generate use)
set(LEASESCOPE_PGO_DIR "${PROJECT_BINARY_DIR}/pgo-profile" CACHE PATH
  "Where LEASESCOPE_PGO=generate writes its counts and LEASESCOPE_PGO=use reads them")

if(LEASESCOPE_PGO STREQUAL "OFF")
  return()
endif()
if(NOT LEASESCOPE_PGO MATCHES "^(generate|use)$")
  message(FATAL_ERROR "LEASESCOPE_PGO=${LEASESCOPE_PGO}: expected OFF, generate or use")
endif()
if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  message(FATAL_ERROR "LEASESCOPE_PGO=${LEASESCOPE_PGO}: only GCC's -fprofile-generate/-fprofile-use are supported "
                      "(this build uses ${CMAKE_CXX_COMPILER_ID})")
endif()
if(LEASESCOPE_PGO STREQUAL "use")
  file(GLOB leasescope_pgo_counts "${LEASESCOPE_PGO_DIR}/*.gcda")
  if(NOT leasescope_pgo_counts)
    message(FATAL_ERROR "LEASESCOPE_PGO=use: no profile (*.gcda) in ${LEASESCOPE_PGO_DIR}; "
                        "run tools/pgo.sh, which trains a LEASESCOPE_PGO=generate build first")
  endif()
endif()

foreach(leasescope_pgo_target leasescope_engine leasescope_sim)
  if(LEASESCOPE_PGO STREQUAL "generate")
    # The search runs several threads: their counts are added atomically.
    target_compile_options(${leasescope_pgo_target} PRIVATE
      -fprofile-generate=${LEASESCOPE_PGO_DIR} -fprofile-update=atomic)
    # Every program that links the library links GCC's profiling runtime.
    target_link_options(${leasescope_pgo_target} INTERFACE
      $<BUILD_INTERFACE:-fprofile-generate=${LEASESCOPE_PGO_DIR}>)
  else()
    # Functions the training never reached are optimised as usual, not for
    # size; a unity batch the training never entered has no counts.
    target_compile_options(${leasescope_pgo_target} PRIVATE
      -fprofile-use=${LEASESCOPE_PGO_DIR} -fprofile-partial-training -Wno-missing-profile)
  endif()
endforeach()
