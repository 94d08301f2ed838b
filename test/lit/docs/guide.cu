// The reports docs/guide.md quotes are what the plugin prints for the
// bundled examples today.
// RUN: %ts_device -fsyntax-only %src/examples/reduce.cu -Xclang -plugin-arg-ts -Xclang -report > %t.reduce.txt
// RUN: %ts_device -fsyntax-only %src/examples/tma_copy.cu -Xclang -plugin-arg-ts -Xclang -report > %t.tma.txt
// RUN: python3 %S/Inputs/quoted_reports.py %src/docs/guide.md %t.reduce.txt %t.tma.txt | FileCheck %s
// CHECK: {{[0-9]+}} quoted report lines found
