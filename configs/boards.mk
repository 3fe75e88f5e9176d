# FPGA board configurations (docs/fpga.md section 2): one parameter set per board, the only
# place where they are written. Included by sim/fpga.mk (synthesis: chparam of the SM and of
# the board top), sim/gpu.mk and sim/board.mk (FPGA_BOARD=<name> builds the Verilated GPU
# and board core with the same set, so the HELLO build fields are the board's), and the
# host configuration build/fpga/<name>.cfg is generated from it (`make fpga-configs`), so
# the host's check of HELLO against its configuration compares the same numbers.
#
# Names are the parameters of wg_gpu / wg_board_core / wg_sm (docs/sm.md section 1).
# HAS_SFU, LSU_LANES, RF_LANES and SIMD_DIRECT are the SM's FPGA options: wg_sm, and the board
# image (wg_xc7_top, wg_board_top, wg_board_core, wg_gpu) passes them down; the Verilated GPU and
# board builds (sim/gpu.mk, sim/board.mk) leave them at their defaults (the SFU, the warp-wide
# coalescer, row-wide register files and the SIMD units' direct pass 0).

# arty: Digilent Arty A7-100T (XC7A100T: 63,400 LUT, 126,800 FF, 135 RAMB36, 240 DSP48E1).
# One SM of 2 x 4 lanes (the two SIMD units of the power-gating study, each with FP32; a
# lane with its FP32 unit is about 3.2k LUTs, docs/fpga.md section 3.2), 8 warps (4 per
# scheduler), 8192 registers (32 per thread at full occupancy), 2 CTAs, 16 KB L1/shared
# array with the GTX480's L1 associativity (16 sets: 6 ways in the 48 KB split, 2 in the
# 16 KB one, as 64 sets give at 64 KB; 8 sets made 12 and 4 ways and cost 2.2k LUTs more in
# wg_l1's tag updates), no SFU, coalescer 4 lanes per cycle (the SIMD width: docs/fpga.md
# section 3.4), register files of 8 lanes per RAM word (rows in 4 beats, in block RAM:
# docs/regfile.md section 12; 4 lanes per word take 1.2k LUTs less per pipe and about 13%
# more cycles, docs/fpga.md section 3.4), SIMD units loading every pass from their pass
# buffer (SIMD_DIRECT=0: a cycle more per SIMD instruction, a third of each unit's own logic
# less, docs/fpga.md section 3.6).
# A SIMT stack of 64 entries per warp in both sets, the golden model's depth: a loop whose
# lanes leave at different trips pushes two entries per divergence (kernels/nested.s
# needs more than 32), and any kernel the golden model runs must run here.
FPGA_BOARD_arty := NUM_SMS=1 NUM_WARPS=8 SIMD_WIDTH=4 NUM_SIMD=2 NUM_REGS=8192 RF_BANKS=4 \
                   NUM_CTAS=2 DMEM_BYTES=16384 L1_SETS=16 L1_MSHRS=4 IMEM_DEPTH=1024 \
                   CMEM_BYTES=1024 STACK_DEPTH=64 HAS_FP=1 HAS_SFU=0 MEM_TAG_W=8 RETIRE_EN=0 \
                   LSU_LANES=4 RF_LANES=8 SIMD_DIRECT=0

# ice40: the tiniest SM meant to run integer kernels (not run yet): one SIMD unit of 4 lanes, 4 warps,
# 1024 registers, 1 CTA, 2 KB array, 256 instructions, no FP, no SFU, coalescer 4 lanes per
# cycle. It does not fit an iCE40 (docs/fpga.md section 3): the iCE40 bitstream of `make
# fpga` is the FX2 loop-back.
FPGA_BOARD_ice40 := NUM_SMS=1 NUM_WARPS=4 SIMD_WIDTH=4 NUM_SIMD=1 NUM_REGS=1024 RF_BANKS=4 \
                    NUM_CTAS=1 DMEM_BYTES=2048 L1_SETS=2 L1_MSHRS=2 IMEM_DEPTH=256 \
                    CMEM_BYTES=256 STACK_DEPTH=64 HAS_FP=0 HAS_SFU=0 MEM_TAG_W=8 RETIRE_EN=0 \
                    LSU_LANES=4 RF_LANES=4 SIMD_DIRECT=0

# nexysv: Digilent Nexys Video (XC7A200T-1SBG484C: 134,600 LUT, 269,200 FF, 365 RAMB36, 740
# DSP48E1), the Artix-7 board that holds the `arty` SM: the same set (docs/fpga.md section 3.9:
# the SM is 1.8 times an XC7A100T by yosys' best mapping, and 0.84 of the XC7A200T). The Arty
# keeps its set as the target of the redesign that is to make the SM fit it (section 3.6).
FPGA_BOARD_nexysv := $(FPGA_BOARD_arty)

# The parameter sets (linted with each set by make fpga-lint; nexysv is arty's).
FPGA_BOARDS := arty ice40
# The Xilinx 7-series boards (constraints/vivado-build.tcl) and the device each is compared
# with by make fpga-xc7 (ice40's set is compared with the XC7A100T, the smallest Artix-7 board
# here); the devices' capacity: LUT, FF, RAMB36 (a RAMB18 counts half), DSP48E1.
FPGA_XC7_BOARDS     := arty nexysv
FPGA_XC7_DEV_arty   := XC7A100T
FPGA_XC7_DEV_nexysv := XC7A200T
FPGA_XC7_DEV_ice40  := XC7A100T
XC7_CAP_XC7A100T    := 63400 126800 135 240
XC7_CAP_XC7A200T    := 134600 269200 365 740

# $(call board_param,BOARD,NAME): one value
board_param = $(patsubst $(2)=%,%,$(filter $(2)=%,$(FPGA_BOARD_$(1))))
# $(call board_params,BOARD,NAMES): NAME=VALUE of the names given (in the set's order)
board_params = $(filter $(addsuffix =%,$(2)),$(FPGA_BOARD_$(1)))
# Names wg_gpu and wg_board_core take (NUM_SMS goes through WG_GPU_NUM_SMS, as in sim/gpu.mk).
BOARD_GPU_NAMES := NUM_WARPS SIMD_WIDTH NUM_SIMD NUM_REGS RF_BANKS NUM_CTAS DMEM_BYTES L1_SETS \
                   L1_MSHRS IMEM_DEPTH CMEM_BYTES STACK_DEPTH HAS_FP MEM_TAG_W RETIRE_EN
# Names wg_sm and the board image take. $(call board_vflags,BOARD,NAMES): for the Verilated
# wg_gpu / wg_board_core give $(BOARD_GPU_NAMES), for wg_sm and wg_xc7_top $(BOARD_SM_NAMES).
BOARD_SM_NAMES := $(BOARD_GPU_NAMES) HAS_SFU LSU_LANES RF_LANES SIMD_DIRECT
# Verilator -G flags and the C macros of sim/wggpu_params.h for the GPU and board models.
# The one-bit parameters are given as 1'b0 / 1'b1 (a plain 1 is a 32-bit constant: WIDTH).
BOARD_BIT_NAMES := HAS_FP HAS_SFU RETIRE_EN SIMD_DIRECT
board_gval   = $(if $(filter $(addsuffix =%,$(BOARD_BIT_NAMES)),$(1)),$(firstword $(subst =, ,$(1)))="1'b$(lastword $(subst =, ,$(1)))",$(1))
board_vflags = +define+WG_GPU_NUM_SMS=$(call board_param,$(1),NUM_SMS) \
               $(foreach p,$(call board_params,$(1),$(2)),-G$(call board_gval,$(p)))
board_cdefs  = -DWGGPU_NUM_SMS=$(call board_param,$(1),NUM_SMS) \
               $(addprefix -DWGGPU_,$(call board_params,$(1),$(BOARD_GPU_NAMES)))
# The WGSIM_* macros of sim/wgsim.cpp for a Verilated wg_sm of the set (sm-board-test):
# wgsim_info then reports the set, so test_sm and the sim target know what the model holds.
# WGSIM_SMEM_BYTES is the shared size of the 48 KB split, 3/4 of the array.
BOARD_WGSIM_NAMES := NUM_WARPS SIMD_WIDTH NUM_SIMD NUM_REGS NUM_CTAS IMEM_DEPTH CMEM_BYTES STACK_DEPTH \
                     HAS_FP HAS_SFU RETIRE_EN MEM_TAG_W LSU_LANES
board_simdefs = $(addprefix -DWGSIM_,$(call board_params,$(1),$(BOARD_WGSIM_NAMES))) \
                -DWGSIM_SMEM_BYTES=$(shell echo $$(( $(call board_param,$(1),DMEM_BYTES) * 3 / 4 )))
# yosys chparam arguments for a top with the given names: -set NAME VALUE ...
board_chparam = $(foreach p,$(call board_params,$(1),$(2)),-set $(subst =, ,$(p)))
