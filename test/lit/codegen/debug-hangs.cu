// -debug-hangs[=<ms>]: every generated wait gives up after that long with no
// progress, prints kernel, task, resource, barrier, stage, parity, which
// wait of the task it was and the CTA, then traps (docs/guide.md). The
// emitted file defines LIBTS_DEBUG_HANGS and names each handle's site; the
// option off, nothing of it is in the rewrite (every other test).
// RUN: %ts_device -O3 -S %src/examples/tma_copy.cu -o %t.ptx -Xclang -plugin-arg-ts -Xclang -debug-hangs=250 -Xclang -plugin-arg-ts -Xclang -emit=%t.cu
// RUN: grep -v '// CHECK' %t.cu | FileCheck %s
// RUN: FileCheck %s --check-prefix=PTX --input-file=%t.ptx
// RUN: %ts_cubin -O0 -c %src/examples/tma_copy.cu -o %t.o -Xclang -plugin-arg-ts -Xclang -debug-hangs
// RUN: %ts_device -O3 -S %src/examples/tma_copy.cu -o - | FileCheck %s --check-prefix=OFF
// RUN: not %ts_device -fsyntax-only %src/examples/tma_copy.cu -Xclang -plugin-arg-ts -Xclang -debug-hangs=0 2>&1 | FileCheck %s --check-prefix=BAD
// CHECK: {{^}}#define LIBTS_DEBUG_HANGS 250{{$}}
// CHECK: const ::ts::detail::hang_site ts_site_cons_0{"tma_copy", "store", "Tiles"};
// CHECK-NEXT: ::store(p, ::ts::detail::param_t<decltype(&::store), 1>(ts_pipe_0, ts_cons_0, ::ts::detail::release_mode::at_once, &ts_site_cons_0), ::ts::detail::param_t<decltype(&::store), 2>());
// CHECK: const ::ts::detail::hang_site ts_site_prod_0{"tma_copy", "load", "Tiles"};
// CHECK-NEXT: ::load(p, ::ts::detail::param_t<decltype(&::load), 1>(ts_pipe_0, ts_prod_0, ts_warp == 4u, ::ts::detail::fill_mode::arms, &ts_site_prod_0));
// CHECK-NEXT: ::ts::detail::producer_drain(ts_pipe_0, ts_prod_0, &ts_site_prod_0);
// The report prints and traps; the bounded waits read the global timer.
// PTX: vprintf
// PTX: trap;
// PTX: %globaltimer
// OFF-NOT: globaltimer
// OFF-NOT: vprintf
// BAD: error: libts: unknown or malformed plugin argument '-debug-hangs=0'
