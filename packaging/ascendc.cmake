# SPDX-License-Identifier: MIT
#
# ascendc.cmake - the CMake entry points that CANN's kernel samples include
# as ${ASCENDC_CMAKE_DIR}/ascendc.cmake, for the Linux ascend accel driver
# stack.  Written for this project (Documentation/install.rst); installed as
# <prefix>/tikcpp/ascendc_kernel_cmake/ascendc.cmake, the directory
# set_env.sh exports as ASCENDC_CMAKE_DIR.
#
# This NPU runs no AscendC device code: its kernels are the emulated NPU's
# built-in library, reached with aclrtBinaryLoadFromFile("ascend://builtin")
# and aclrtLaunchKernel.  So the sources given to ascendc_library() are
# compiled by the host C++ compiler: they must be host-side launchers (the
# WriteDo/ReadDo functions a sample's kernel_func/ file defines, written on
# the built-in library), not AscendC kernels.  A source with AscendC device
# code (__aicore__) is reported at configure time and fails to compile.
#
# What it defines:
#   host_intf_pub                      INTERFACE target: include/ and libacl_rt.so
#   ascendc_library(T STATIC|SHARED|OBJECT src...)
#                                      library T of the sources, linking host_intf_pub
#                                      (so `target_link_libraries(main kernels)` links
#                                      the runtime too)
#   ascendc_fatbin_library(T src...)   installs fatbin/T/T.o under CMAKE_INSTALL_PREFIX,
#                                      a reference to the built-in kernel library that
#                                      aclrtBinaryLoadFromFile loads
#   ascendc_compile_definitions(T [PRIVATE|PUBLIC|INTERFACE] ...)
#   ascendc_compile_options(T ...)     the same as target_compile_definitions /
#   ascendc_include_directories(T ...) target_compile_options / target_include_directories
#   ASCEND_CANN_PACKAGE_PATH           the prefix, when the project did not set it
#   ASCENDC_KERNEL_CMAKE_DIR           this file's directory
# Relocatable: every path comes from this file's own location.

include_guard(GLOBAL)

get_filename_component(_ascendc_self "${CMAKE_CURRENT_LIST_FILE}" REALPATH)
get_filename_component(ASCENDC_KERNEL_CMAKE_DIR "${_ascendc_self}" DIRECTORY)
get_filename_component(_ascendc_prefix "${ASCENDC_KERNEL_CMAKE_DIR}/../.." ABSOLUTE)
set(_ASCENDC_PREFIX "${_ascendc_prefix}" CACHE INTERNAL "ascend install prefix of ascendc.cmake")
unset(_ascendc_self)
unset(_ascendc_prefix)

if(NOT EXISTS "${_ASCENDC_PREFIX}/lib64/libacl_rt.so" OR
   NOT EXISTS "${_ASCENDC_PREFIX}/include/acl/acl.h")
  message(FATAL_ERROR "ascendc.cmake: ${_ASCENDC_PREFIX} has no lib64/libacl_rt.so and "
    "include/acl/acl.h (is this file still in <prefix>/tikcpp/ascendc_kernel_cmake/?)")
endif()

if(NOT DEFINED ASCEND_CANN_PACKAGE_PATH OR "${ASCEND_CANN_PACKAGE_PATH}" STREQUAL "")
  set(ASCEND_CANN_PACKAGE_PATH "${_ASCENDC_PREFIX}")
endif()

get_property(_ascendc_langs GLOBAL PROPERTY ENABLED_LANGUAGES)
if(NOT "CXX" IN_LIST _ascendc_langs)
  enable_language(CXX)
endif()
unset(_ascendc_langs)

if(NOT TARGET host_intf_pub)
  add_library(host_intf_pub INTERFACE)
  target_include_directories(host_intf_pub INTERFACE "${_ASCENDC_PREFIX}/include")
  target_link_libraries(host_intf_pub INTERFACE "${_ASCENDC_PREFIX}/lib64/libacl_rt.so")
endif()

# Warn about sources that hold AscendC device code: they cannot be built here.
function(_ascendc_check_sources target)
  foreach(_src IN LISTS ARGN)
    get_filename_component(_abs "${_src}" ABSOLUTE)
    if(EXISTS "${_abs}" AND NOT IS_DIRECTORY "${_abs}")
      file(STRINGS "${_abs}" _dev REGEX "__aicore__" LIMIT_COUNT 1)
      if(_dev)
        message(WARNING "${target}: ${_src} holds AscendC device code (__aicore__), which this "
          "NPU cannot run and the host compiler cannot build.  Give ${target} a host-side "
          "launcher instead: aclrtBinaryLoadFromFile(\"ascend://builtin\", ...), "
          "aclrtBinaryGetFunction and aclrtLaunchKernel on a built-in kernel.")
      endif()
    endif()
  endforeach()
endfunction()

function(ascendc_library target type)
  string(TOUPPER "${type}" _type)
  if(NOT _type MATCHES "^(STATIC|SHARED|OBJECT)$")
    message(FATAL_ERROR "ascendc_library(${target} ${type} ...): the type must be STATIC, "
      "SHARED or OBJECT")
  endif()
  if(NOT ARGN)
    message(FATAL_ERROR "ascendc_library(${target} ${type}): no sources")
  endif()
  _ascendc_check_sources(${target} ${ARGN})
  add_library(${target} ${_type} ${ARGN})
  set_target_properties(${target} PROPERTIES POSITION_INDEPENDENT_CODE ON)
  if(NOT DEFINED CMAKE_CXX_STANDARD)
    set_target_properties(${target} PROPERTIES CXX_STANDARD 17)
  endif()
  target_link_libraries(${target} PUBLIC host_intf_pub)
endfunction()

# CANN's compiled kernel image is <CMAKE_INSTALL_PREFIX>/fatbin/T/T.o; here
# it names the built-in library (the bytes "ascend://builtin" and a newline).
function(ascendc_fatbin_library target)
  _ascendc_check_sources(${target} ${ARGN})
  set(_out "${CMAKE_CURRENT_BINARY_DIR}/fatbin/${target}/${target}.o")
  file(WRITE "${_out}" "ascend://builtin\n")
  add_custom_target(${target} ALL)
  set_target_properties(${target} PROPERTIES ASCENDC_FATBIN "${_out}")
  install(FILES "${_out}" DESTINATION "fatbin/${target}")
endfunction()

function(ascendc_compile_definitions target)
  target_compile_definitions(${target} ${ARGN})
endfunction()

function(ascendc_compile_options target)
  target_compile_options(${target} ${ARGN})
endfunction()

function(ascendc_include_directories target)
  target_include_directories(${target} ${ARGN})
endfunction()
