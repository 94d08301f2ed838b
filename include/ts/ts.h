// libts: the single include of a task file. Attributes, the device runtime
// the generated kernel calls, and the user API (domain, pipeline handles,
// TMA loads, launch, TMA descriptors: ts::tensor_map).
#ifndef LIBTS_TS_H
#define LIBTS_TS_H

// Without the plugin the [[ts::...]] attributes are ignored and every
// [[ts::kernel]] would be a declaration with no body: fail loudly instead.
// (libts-nvcc defines __LIBTS_PREPROCESS__ for -E/-M: preprocessing only.)
#if !defined(__LIBTS_GENERATED__) && !defined(__LIBTS_PREPROCESS__)
#if !defined(__has_cpp_attribute)
#error "libts: this file uses [[ts::...]] attributes; compile it with clang++ -fplugin=libts.so, or compile the .cu that libts emits (-plugin-arg-ts -emit=<file>)"
#elif !__has_cpp_attribute(ts::kernel)
#error "libts: this file uses [[ts::...]] attributes; compile it with clang++ -fplugin=libts.so, or compile the .cu that libts emits (-plugin-arg-ts -emit=<file>)"
#endif
#endif

// The emitted .cu keeps the user's [[ts::...]] attributes, which nvcc does
// not know; they are meaningless after lowering, so silence that warning.
#if defined(__LIBTS_GENERATED__) && defined(__NVCC__)
#pragma nv_diag_suppress 2803
// Generated role branches test `ts_warp >= 0u` for tasks that start at warp 0.
#pragma nv_diag_suppress 186
#endif

#include "ts/attributes.h"
#include "ts/detail.h"
#include "ts/domain.h"
#include "ts/pipeline.h"
#include "ts/tiles.h"
#include "ts/owned.h"
#include "ts/turn.h"
#include "ts/warpgroup.h"
#include "ts/pdl.h"
#include "ts/tma.h"
#include "ts/cluster.h"
#include "ts/wgmma.h"
#include "ts/tcgen05.h"
#include "ts/clc.h"
#include "ts/launch.h"
#include "ts/stream_k.h"
#include "ts/tensor_map.h"

#endif
