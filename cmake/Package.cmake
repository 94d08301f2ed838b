# `cmake --install <build> --prefix <dir>`: the plugin, the ts/ headers, the
# CUDA 13 shim header, the drivers (libts-nvcc, libts-clangd), the CMake
# package and the LICENSE (share/doc/libts), so that a project says
#   find_package(libts CONFIG REQUIRED)
#   libts_add_kernels(app kernel.cu)
# (docs/using.md). Included from the top-level CMakeLists.txt.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(LIBTS_PACKAGE_VERSION ${PROJECT_VERSION})
set(LIBTS_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/libts)
set(LIBTS_INSTALL_SHIMDIR ${CMAKE_INSTALL_DATADIR}/libts/shim)

# The tools users run: the clang and clangd of this LLVM 19, and the CUDA
# SDK of the nvcc found now (defaults; each can be overridden later).
set(LIBTS_CLANG_DEFAULT ${LLVM_TOOLS_BINARY_DIR}/clang++)
find_program(LIBTS_CLANGD_DEFAULT NAMES clangd-19 clangd
  HINTS ${LLVM_TOOLS_BINARY_DIR} DOC "clangd 19 that libts-clangd starts")
if(NOT LIBTS_CLANGD_DEFAULT)
  set(LIBTS_CLANGD_DEFAULT clangd-19)
endif()
find_program(LIBTS_PACKAGE_NVCC nvcc HINTS /usr/local/cuda/bin DOC "nvcc whose SDK clang uses")
if(LIBTS_PACKAGE_NVCC)
  get_filename_component(LIBTS_CUDA_DEFAULT ${LIBTS_PACKAGE_NVCC} DIRECTORY)
  get_filename_component(LIBTS_CUDA_DEFAULT ${LIBTS_CUDA_DEFAULT} DIRECTORY)
else()
  set(LIBTS_CUDA_DEFAULT /usr/local/cuda)
endif()

# The drivers find the plugin, the headers and the shim relative to their
# own bin/ directory: installed, bin/ of the prefix; in the build tree,
# <build>/bin, pointing into the build and the source (README.md uses them
# there before anything is installed).
function(libts_configure_drivers outdir bindir plugin include shim)
  foreach(what plugin include shim)
    string(TOUPPER ${what} up)
    file(RELATIVE_PATH LIBTS_REL_${up} ${bindir} ${${what}})
  endforeach()
  foreach(tool libts-nvcc libts-clangd libts-clang++)
    configure_file(${PROJECT_SOURCE_DIR}/tools/${tool}.in ${outdir}/${tool}
      @ONLY FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE
      WORLD_READ WORLD_EXECUTE)
  endforeach()
endfunction()
set(_libts_p /libts-prefix)
libts_configure_drivers(${PROJECT_BINARY_DIR}/tools ${_libts_p}/${CMAKE_INSTALL_BINDIR}
  ${_libts_p}/${CMAKE_INSTALL_LIBDIR}/libts.so ${_libts_p}/${CMAKE_INSTALL_INCLUDEDIR}
  ${_libts_p}/${LIBTS_INSTALL_SHIMDIR})
libts_configure_drivers(${PROJECT_BINARY_DIR}/bin ${PROJECT_BINARY_DIR}/bin
  ${PROJECT_BINARY_DIR}/lib/libts.so
  ${PROJECT_SOURCE_DIR}/include ${PROJECT_SOURCE_DIR}/tools/shim)

# The plugin keeps its run path to LLVM's libraries (clangd preloads it).
set_target_properties(ts PROPERTIES INSTALL_RPATH "${LLVM_LIBRARY_DIR}")
install(TARGETS ts LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT libts)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/ts DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  COMPONENT libts FILES_MATCHING PATTERN "*.h")
# Clang 19's CUDA wrapper includes texture_fetch_functions.h, which CUDA 13
# no longer ships: an empty one, searched last (-idirafter).
install(FILES ${PROJECT_SOURCE_DIR}/tools/shim/texture_fetch_functions.h
  DESTINATION ${LIBTS_INSTALL_SHIMDIR} COMPONENT libts)
install(PROGRAMS ${PROJECT_BINARY_DIR}/tools/libts-nvcc ${PROJECT_BINARY_DIR}/tools/libts-clangd
  ${PROJECT_BINARY_DIR}/tools/libts-clang++
  DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT libts)
# Apache-2.0 WITH LLVM-exception: the licence goes with every install.
install(FILES ${PROJECT_SOURCE_DIR}/LICENSE
  DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/libts COMPONENT libts)

configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/libtsConfig.cmake.in
  ${PROJECT_BINARY_DIR}/cmake/libtsConfig.cmake
  INSTALL_DESTINATION ${LIBTS_INSTALL_CMAKEDIR}
  PATH_VARS CMAKE_INSTALL_INCLUDEDIR CMAKE_INSTALL_LIBDIR CMAKE_INSTALL_BINDIR
            LIBTS_INSTALL_SHIMDIR)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/cmake/libtsConfigVersion.cmake
  VERSION ${LIBTS_PACKAGE_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/cmake/libtsConfig.cmake
              ${PROJECT_BINARY_DIR}/cmake/libtsConfigVersion.cmake
              ${PROJECT_SOURCE_DIR}/cmake/libtsKernels.cmake
  DESTINATION ${LIBTS_INSTALL_CMAKEDIR} COMPONENT libts)
