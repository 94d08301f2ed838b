# libts_add_kernels(<target> <source.cu>... [CLANG_OPTIONS <arg>...])
#
# For each annotated CUDA source, at build time: clang 19 with the libts
# plugin analyses it (its diagnostics fail the build, with the source's file,
# line and column) and writes the rewritten translation unit to
#   ${CMAKE_CURRENT_BINARY_DIR}/libts/<target>/<source path>.cu
# with a depfile (clang -MD), so a change of the source or of any header it
# includes runs the rewrite again. The rewritten file is compiled by nvcc as
# a CUDA source of <target>. Both compilers get the target's compile
# definitions, include directories and compile options (evaluated for CUDA),
# CMAKE_CUDA_FLAGS and those of the build type; clang also gets
# LIBTS_CLANG_OPTIONS and CLANG_OPTIONS (e.g. -Wno-error=ts-padding). clang
# parses for the first architecture of the target's CUDA_ARCHITECTURES:
# 90a unless the user chose (CMAKE_CUDA_ARCHITECTURES, CUDAARCHS or the
# target's property); CMake's own default, 75, is replaced. Do not list the sources in add_executable too.
# Call it in the directory that creates <target>; the project must enable
# the CUDA language and use a Ninja or Makefile generator.
function(libts_add_kernels target)
  cmake_parse_arguments(PARSE_ARGV 1 _lts "" "" "CLANG_OPTIONS")
  if(NOT TARGET ${target})
    message(FATAL_ERROR "libts_add_kernels: '${target}' is not a target")
  endif()
  get_property(_langs GLOBAL PROPERTY ENABLED_LANGUAGES)
  if(NOT "CUDA" IN_LIST _langs)
    message(FATAL_ERROR "libts_add_kernels(${target}): enable the CUDA language first "
      "(project(... LANGUAGES CXX CUDA) or enable_language(CUDA))")
  endif()
  if(NOT _lts_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "libts_add_kernels(${target}): no sources")
  endif()

  # The SDK clang parses with: that of the nvcc CMake uses.
  set(_cuda "${LIBTS_CUDA_PATH}")
  if(NOT _cuda)
    get_filename_component(_cuda "${CMAKE_CUDA_COMPILER}" DIRECTORY)
    get_filename_component(_cuda "${_cuda}" DIRECTORY)
  endif()

  # Architectures: sm_90a unless the user named some. CMake fills
  # CMAKE_CUDA_ARCHITECTURES with nvcc's default (75 for nvcc 13) when the
  # user did not; that default cannot build an mbarrier, so it gives way.
  get_target_property(_archs ${target} CUDA_ARCHITECTURES)
  set(_ok FALSE)
  foreach(_a IN LISTS _archs)
    if(_a MATCHES "^([0-9]+)" AND CMAKE_MATCH_1 GREATER_EQUAL 90)
      set(_ok TRUE)
    endif()
  endforeach()
  get_property(_help CACHE CMAKE_CUDA_ARCHITECTURES PROPERTY HELPSTRING)
  if(_help STREQUAL "CUDA architectures" AND "$ENV{CUDAARCHS}" STREQUAL ""
     AND "${_archs}" STREQUAL "${CMAKE_CUDA_ARCHITECTURES}" AND NOT _ok)
    set(_archs "") # CMake's default, not the user's
  endif()
  if(NOT _archs)
    set_property(TARGET ${target} PROPERTY CUDA_ARCHITECTURES 90a)
  elseif(NOT _archs STREQUAL "OFF" AND NOT _archs MATCHES "^(native|all|all-major)$")
    if(NOT _ok)
      message(WARNING "libts_add_kernels(${target}): CUDA_ARCHITECTURES is '${_archs}'; "
        "libts kernels need sm_90a (configure with -DCMAKE_CUDA_ARCHITECTURES=90a)")
    endif()
  endif()

  # The target's flags, evaluated for CUDA sources at generate time, one
  # argument a line (libts-nvcc --libts-args= reads them; it translates
  # nvcc's options for clang).
  set(_dir "${CMAKE_CURRENT_BINARY_DIR}/libts/${target}")
  set(_inc "$<TARGET_PROPERTY:${target},INCLUDE_DIRECTORIES>")
  set(_def "$<TARGET_PROPERTY:${target},COMPILE_DEFINITIONS>")
  set(_opt "$<TARGET_PROPERTY:${target},COMPILE_OPTIONS>")
  set(_std "$<TARGET_PROPERTY:${target},CUDA_STANDARD>")
  string(TOUPPER "${CMAKE_BUILD_TYPE}" _bt)
  separate_arguments(_flags UNIX_COMMAND "${CMAKE_CUDA_FLAGS} ${CMAKE_CUDA_FLAGS_${_bt}}")
  set(_nl "\n")
  list(JOIN _flags "${_nl}" _flags)
  if(_flags)
    string(APPEND _flags "${_nl}")
  endif()
  file(GENERATE OUTPUT "${_dir}/args-$<COMPILE_LANGUAGE>.txt" CONTENT
"${_flags}\
$<$<BOOL:${_inc}>:-I$<JOIN:${_inc},${_nl}-I>${_nl}>\
$<$<BOOL:${_def}>:-D$<JOIN:${_def},${_nl}-D>${_nl}>\
$<$<BOOL:${_opt}>:$<JOIN:${_opt},${_nl}>${_nl}>\
$<$<BOOL:${_std}>:-std=c++${_std}${_nl}>\
--libts-cuda-architectures=$<TARGET_PROPERTY:${target},CUDA_ARCHITECTURES>
")
  set(_args "${_dir}/args-CUDA.txt")

  set(_clang_args)
  foreach(_o IN LISTS LIBTS_CLANG_OPTIONS _lts_CLANG_OPTIONS)
    list(APPEND _clang_args "--libts-clang-arg=${_o}")
  endforeach()

  foreach(_src IN LISTS _lts_UNPARSED_ARGUMENTS)
    get_filename_component(_abs "${_src}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    file(RELATIVE_PATH _rel "${CMAKE_CURRENT_SOURCE_DIR}" "${_abs}")
    if(_rel MATCHES "^\\.\\./")
      get_filename_component(_name "${_abs}" NAME)
      set(_rel "external/${_name}")
    endif()
    if(NOT _rel MATCHES "\\.cu$")
      set(_rel "${_rel}.cu")
    endif()
    set(_out "${_dir}/${_rel}")
    get_filename_component(_srcdir "${_abs}" DIRECTORY)
    add_custom_command(OUTPUT "${_out}"
      COMMAND "${LIBTS_NVCC_DRIVER}" "--libts-rewrite=${_out}" "--libts-depfile=${_out}.d"
              "--libts-args=${_args}" "--libts-clang=${LIBTS_CLANG}" "--libts-cuda-path=${_cuda}"
              ${_clang_args} "${_abs}"
      DEPENDS "${_abs}" "${_args}" "${LIBTS_PLUGIN}" "${LIBTS_NVCC_DRIVER}"
      DEPFILE "${_out}.d"
      COMMENT "libts: analysing and rewriting ${_rel}"
      VERBATIM)
    target_sources(${target} PRIVATE "${_out}")
    # #include "x.h" in the source is found next to the source.
    set_source_files_properties("${_out}" TARGET_DIRECTORY ${target} PROPERTIES
      LANGUAGE CUDA GENERATED TRUE COMPILE_OPTIONS "-Xcompiler=-iquote,${_srcdir}")
  endforeach()
  set_property(TARGET ${target} APPEND PROPERTY LINK_LIBRARIES libts::headers)
endfunction()
