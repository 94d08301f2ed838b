// The README's example verifies cleanly, and its rewrite compiles with nvcc.
// RUN: awk '/^```cpp/{f=1;next} /^```/{f=0} f' %src/README.md > %t.cu
// RUN: %ts_device -fsyntax-only -x cuda %t.cu -Xclang -plugin-arg-ts -Xclang -Wno-ts-padding -Xclang -plugin-arg-ts -Xclang -report -Xclang -plugin-arg-ts -Xclang -emit=%t.gen.cu | FileCheck %s
// RUN: %if nvcc %{ %nvcc -O3 -c %t.gen.cu -o %t.o %}
// CHECK: == libts kernel 'copy': 8 warps, 256 threads
// CHECK: -- verification: PASSED (0 error(s), 0 warning(s)
