// Cluster launch control in a cluster of two, in PTX: the clean kernel of
// test/lit/verify/clc.cu built with -DCLUSTER, rewritten and compiled by
// nvcc 13 for sm_100a at -O3 and -G. Rank 0's scheduler arms each CTA's
// stage remotely (mapa, then arrive.expect_tx at cluster scope) and issues
// one multicast try_cancel; every reader, and every CTA's scheduler lane,
// hands the stage back to rank 0's empty barrier (2 x 33 arrivals).
// Compile-verified only: no Blackwell GPU here.
// REQUIRES: nvcc
// RUN: %ts_device -fsyntax-only -Werror -DCLUSTER %src/test/lit/verify/clc.cu -Xclang -plugin-arg-ts -Xclang -emit=%t.cu
// RUN: %sm100_nvcc -DCLUSTER -O3 -ptx %t.cu -o %t.ptx
// RUN: %sm100_nvcc -DCLUSTER -G -cubin %t.cu -o %t.g.cubin
// RUN: grep -c 'init_barriers(.*, 2u, 66u); // Next.empty' %t.cu
// RUN: grep -c 'expect_cluster_ctas<2u>' %t.cu
// RUN: FileCheck %s < %t.ptx
// CHECK: .entry
// CHECK-DAG: mapa.shared::cluster.u32
// CHECK-DAG: mbarrier.arrive.expect_tx.release.cluster.shared::cluster.b64
// CHECK-DAG: clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::complete_tx::bytes.multicast::cluster::all.b128
// CHECK-DAG: mbarrier.arrive.release.cluster.shared::cluster.b64
// CHECK-DAG: clusterlaunchcontrol.query_cancel.get_first_ctaid.v4.b32.b128
