// Build-time parameters of the Verilated GPU and board core, as -D macros from sim/gpu.mk and
// sim/board.mk (the same values go to Verilator); the defaults are the GTX480 build's.
#ifndef WGGPU_PARAMS_H
#define WGGPU_PARAMS_H

#ifndef WGGPU_NUM_SMS
#define WGGPU_NUM_SMS 15
#endif
#ifndef WGGPU_NUM_WARPS
#define WGGPU_NUM_WARPS 48
#endif
#ifndef WGGPU_SIMD_WIDTH
#define WGGPU_SIMD_WIDTH 16
#endif
#ifndef WGGPU_NUM_SIMD
#define WGGPU_NUM_SIMD 2
#endif
#ifndef WGGPU_NUM_REGS
#define WGGPU_NUM_REGS 32768
#endif
#ifndef WGGPU_NUM_CTAS
#define WGGPU_NUM_CTAS 8
#endif
#ifndef WGGPU_IMEM_DEPTH
#define WGGPU_IMEM_DEPTH 4096
#endif
#ifndef WGGPU_CMEM_BYTES
#define WGGPU_CMEM_BYTES 4096
#endif
#ifndef WGGPU_MEM_TAG_W
#define WGGPU_MEM_TAG_W 8
#endif
#ifndef WGGPU_RETIRE_EN
#define WGGPU_RETIRE_EN 1
#endif
#ifndef WGGPU_RF_BANKS
#define WGGPU_RF_BANKS 16
#endif
#ifndef WGGPU_DMEM_BYTES
#define WGGPU_DMEM_BYTES 65536
#endif
#ifndef WGGPU_L1_SETS
#define WGGPU_L1_SETS 64
#endif
#ifndef WGGPU_L1_MSHRS
#define WGGPU_L1_MSHRS 8
#endif
#ifndef WGGPU_STACK_DEPTH
#define WGGPU_STACK_DEPTH 64
#endif
#ifndef WGGPU_HAS_FP
#define WGGPU_HAS_FP 1
#endif

#endif
