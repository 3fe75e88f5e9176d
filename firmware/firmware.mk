# The FX2LP bridge firmware (firmware/, docs/fx2.md) and its test under ucsim.
# Included by the top-level Makefile (-include firmware/firmware.mk); adds to rtl-test::
# so that `make test` runs it.
#   make firmware        firmware/build/warpgate-fx2.{ihx,hex,bix}, size against the 16 KB
#   make firmware-test   tests/fw/test_fw: the image in s51 (ucsim), a few seconds
# sdcc and s51 come from the Debian packages sdcc and sdcc-ucsim (make deps).

FW_IHX := firmware/build/warpgate-fx2.ihx
FW_SRCS := $(wildcard firmware/*.c firmware/*.h firmware/*.asm) firmware/Makefile firmware/size.sh \
           host/include/wg_usb_proto.h host/include/wg_link_proto.h
FW_TEST := $(BUILD)/fw/test_fw

.PHONY: firmware firmware-test

firmware:
	@$(MAKE) --no-print-directory -C firmware

$(FW_IHX): $(FW_SRCS)
	@$(MAKE) --no-print-directory -C firmware

$(FW_TEST): tests/fw/test_fw.c tests/fw/s51.c tests/fw/s51.h host/include/wg_usb_proto.h \
            host/include/wg_link_proto.h firmware/firmware.mk
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -Itests/fw $(filter-out -MMD -MP,$(CFLAGS)) -o $@ tests/fw/test_fw.c tests/fw/s51.c \
		-lcmocka -lutil

firmware-test: $(FW_TEST) $(FW_IHX)
	@scripts/fw-test.sh $(FW_TEST) $(FW_IHX)

rtl-test:: firmware-test
