# CMake toolchain file used by the build of the QuickJS engine backend.
#
# deno_core's QuickJS backend builds WAMR (WebAssembly for QuickJS) with CMake, and
# WAMR's build fetches the header-only `simde` library over the network with
# FetchContent. When the system already has simde's headers (Debian: libsimde-dev),
# point FetchContent at them so the build stays offline. Without the headers this file
# changes nothing and WAMR falls back to its own fetch.
#
# `.cargo/config.toml` hands this file to CMake through the CMAKE_TOOLCHAIN_FILE
# environment variable (honoured by CMake 3.21 and later).
if(EXISTS "/usr/include/simde/simde-common.h")
  set(FETCHCONTENT_SOURCE_DIR_SIMDE "/usr/include" CACHE PATH "system simde headers" FORCE)
endif()
