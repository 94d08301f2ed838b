// Shapes of the reduction: the stage size libts lays out in shared memory.
#pragma once

constexpr int kChunk = 2048;            // floats per stage
constexpr int kStages = 4;              // stages in the pipeline
constexpr int kVecs = kChunk / 4 / 128; // float4 per thread per chunk (128 threads)
