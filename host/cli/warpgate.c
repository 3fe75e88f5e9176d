/*
 * warpgate: the command-line front end of libwarpgate.
 *   warpgate asm IN.s -o OUT.wgk
 *   warpgate disasm IN.wgk [-o OUT.s]
 *   warpgate ptx IN.ptx [-o OUT.s | --wgk OUT.wgk]
 *   warpgate run KERNEL_FILE --kernel NAME --grid X[,Y,Z] --block X[,Y,Z] [--arg V]... ...
 *   warpgate experiment simd|cta|bet [--kernels LIST] [--size S] [--target T] [--out DIR] ...
 *   warpgate config [--config FILE]
 *   warpgate targets | version | help
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asm.h"
#include "config.h"
#include "device.h"
#include "disasm.h"
#include "experiment.h"
#include "image.h"
#include "ptx.h"
#include "target.h"
#include "warpgate.h"

#include <unistd.h>

static const char *prog = "warpgate";

static void die_usage(const char *sub, const char *msg)
{
	fprintf(stderr, "%s %s: %s (see '%s %s --help')\n", prog, sub, msg, prog, sub);
	exit(2);
}

/* ------------------------------------------------------------------ asm */

static void asm_help(void)
{
	puts("usage: warpgate asm IN.s -o OUT.wgk\n"
	     "\n"
	     "Assemble a warpgate assembly file (docs/isa.md) into a kernel image (docs/wgk.md).\n"
	     "Errors are reported as file:line:column; the exit code is 1 on errors.\n"
	     "\n"
	     "  -o, --output FILE   the image to write (required)\n"
	     "  -h, --help          this text");
}

static int cmd_asm(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' }, { "help", no_argument, NULL, 'h' }, { 0 }
	};
	const char *out = NULL;
	struct wg_image img = { 0 };
	int c, rc;

	while ((c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
		switch (c) {
		case 'o': out = optarg; break;
		case 'h': asm_help(); return 0;
		default: die_usage("asm", "bad option");
		}
	}
	if (optind != argc - 1)
		die_usage("asm", "expected exactly one input file");
	if (!out)
		die_usage("asm", "missing -o OUT.wgk");
	rc = wg_asm_file(&img, argv[optind], stderr);
	if (rc)
		return 1;
	rc = wg_image_write(&img, out);
	if (rc)
		fprintf(stderr, "%s asm: cannot write %s: %s\n", prog, out, wg_strerror(rc));
	wg_image_free(&img);
	return rc ? 1 : 0;
}

/* --------------------------------------------------------------- disasm */

static void disasm_help(void)
{
	puts("usage: warpgate disasm IN.wgk [-o OUT.s]\n"
	     "\n"
	     "Print a kernel image as assembly source; 'warpgate asm' turns it back into\n"
	     "the identical image.\n"
	     "\n"
	     "  -o, --output FILE   write to FILE instead of standard output\n"
	     "  -h, --help          this text");
}

static int cmd_disasm(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' }, { "help", no_argument, NULL, 'h' }, { 0 }
	};
	const char *out = NULL;
	struct wg_image img = { 0 };
	char err[512];
	FILE *f = stdout;
	int c, rc;

	while ((c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
		switch (c) {
		case 'o': out = optarg; break;
		case 'h': disasm_help(); return 0;
		default: die_usage("disasm", "bad option");
		}
	}
	if (optind != argc - 1)
		die_usage("disasm", "expected exactly one input file");
	rc = wg_image_read(&img, argv[optind], err, sizeof(err));
	if (rc) {
		fprintf(stderr, "%s disasm: %s\n", prog, err);
		return 1;
	}
	if (out && strcmp(out, "-") && !(f = fopen(out, "w"))) {
		fprintf(stderr, "%s disasm: cannot write %s: %s\n", prog, out, strerror(errno));
		wg_image_free(&img);
		return 1;
	}
	rc = wg_disasm_image(&img, f);
	if (f != stdout && fclose(f))
		rc = WG_EIO;
	wg_image_free(&img);
	if (rc)
		fprintf(stderr, "%s disasm: %s\n", prog, wg_strerror(rc));
	return rc ? 1 : 0;
}

/* ------------------------------------------------------------------ ptx */

static void ptx_help(void)
{
	puts("usage: warpgate ptx IN.ptx [-o OUT.s] [--wgk OUT.wgk]\n"
	     "\n"
	     "Translate PTX (as nvcc -ptx writes it; the subset of docs/ptx.md) into warpgate\n"
	     "assembly, with '; ptx N' comments giving the PTX line of each instruction.\n"
	     "The assembly is also assembled, so every error is reported here.\n"
	     "\n"
	     "  -o, --output FILE   the assembly to write (default: standard output)\n"
	     "  -w, --wgk FILE      also write the kernel image\n"
	     "  -h, --help          this text");
}

static int cmd_ptx(int argc, char **argv)
{
	static const struct option opts[] = { { "output", required_argument, NULL, 'o' },
					       { "wgk", required_argument, NULL, 'w' },
					       { "help", no_argument, NULL, 'h' },
					       { 0 } };
	const char *out = NULL, *wgk = NULL;
	struct wg_image img = { 0 };
	char *text = NULL;
	FILE *f = stdout;
	int c, rc;

	while ((c = getopt_long(argc, argv, "o:w:h", opts, NULL)) != -1) {
		switch (c) {
		case 'o': out = optarg; break;
		case 'w': wgk = optarg; break;
		case 'h': ptx_help(); return 0;
		default: die_usage("ptx", "bad option");
		}
	}
	if (optind != argc - 1)
		die_usage("ptx", "expected exactly one input file");
	rc = wg_ptx_translate_file(argv[optind], &text, &img, stderr);
	if (rc) {
		if (rc == WG_ENOENT)
			fprintf(stderr, "%s ptx: cannot read %s\n", prog, argv[optind]);
		return 1;
	}
	if (out && strcmp(out, "-") && !(f = fopen(out, "w"))) {
		fprintf(stderr, "%s ptx: cannot write %s: %s\n", prog, out, strerror(errno));
		rc = 1;
		goto done;
	}
	if (fputs(text, f) == EOF)
		rc = 1;
	if (f != stdout && fclose(f))
		rc = 1;
	if (rc)
		fprintf(stderr, "%s ptx: cannot write %s\n", prog, out ? out : "standard output");
	if (!rc && wgk && wg_image_write(&img, wgk)) {
		fprintf(stderr, "%s ptx: cannot write %s\n", prog, wgk);
		rc = 1;
	}
done:
	free(text);
	wg_image_free(&img);
	return rc ? 1 : 0;
}

/* ------------------------------------------------------------------ run */

static void run_help(void)
{
	puts("usage: warpgate run KERNEL_FILE --kernel NAME --grid X[,Y,Z] --block X[,Y,Z] [options]\n"
	     "\n"
	     "Run one kernel of a module (.s or .wgk) on a target and print its statistics.\n"
	     "\n"
	     "  -k, --kernel NAME       kernel to launch (default: the module's only kernel)\n"
	     "  -g, --grid X[,Y,Z]      grid dimensions in CTAs\n"
	     "  -b, --block X[,Y,Z]     CTA dimensions in threads\n"
	     "  -a, --arg VALUE         next kernel parameter, in declaration order. Scalars take\n"
	     "                          integer or float literals; ptr parameters take a new\n"
	     "                          buffer: zeros:BYTES | iota:BYTES (u32 0,1,2,...) |\n"
	     "                          rand:BYTES[:SEED] | fill:BYTES:U32 | file:PATH\n"
	     "  -d, --dump PARAM:FILE   after the run, write the buffer of ptr parameter PARAM\n"
	     "                          (name or index) to FILE\n"
	     "  -s, --shared BYTES      dynamic shared memory per CTA\n"
	     "  -t, --target NAME       target (default func; 'warpgate targets' lists them)\n"
	     "  -c, --config FILE       GPU configuration (default: built-in GTX480, configs/)\n"
	     "  -j, --json FILE         write statistics as JSON ('-' for standard output)\n"
	     "  -r, --retire-log FILE   write the retire stream (docs/retire-log.md)\n"
	     "      --trace-fst FILE    FST waveform of the RTL (sim target), for GTKWave\n"
	     "      --option KEY=VALUE  a target option, e.g. lockstep=0, mem_latency=100 (docs/cosim.md);\n"
	     "                          the gpu target also takes configuration keys (docs/config.md)\n"
	     "      --cta-policy NAME   CTA dispatch on the gpu target: rr, consolidate or congestion\n"
	     "                          (docs/dispatch.md; the same as --option cta_policy=NAME)\n"
	     "      --pg MODE           power gating (sim, gpu targets): off, normal (lanes gated after\n"
	     "                          idle_detect_cycles), issue (+ warp issue control), comp (+ thread\n"
	     "                          compaction), mix (both); the same as --option pg=MODE\n"
	     "      --bet N             break-even time in cycles (the same as --option bet_cycles=N)\n"
	     "  -q, --quiet             no summary line\n"
	     "  -h, --help              this text\n"
	     "\n"
	     "Exit code: 0 success, 1 the kernel failed, 2 bad usage or input.");
}

static int parse_dim3(const char *s, wg_dim3 *d)
{
	unsigned long v[3] = { 1, 1, 1 };
	char *end;
	int n = 0;

	while (n < 3) {
		errno = 0;
		v[n++] = strtoul(s, &end, 0);
		if (errno || end == s || v[n - 1] > UINT32_MAX || *s == '-')
			return -1;
		if (!*end)
			break;
		if (*end != ',')
			return -1;
		s = end + 1;
	}
	if (*end)
		return -1;
	d->x = (uint32_t)v[0];
	d->y = (uint32_t)v[1];
	d->z = (uint32_t)v[2];
	return 0;
}

struct run_buf {
	uint64_t dptr;
	size_t bytes;
};

static uint64_t splitmix64(uint64_t *s)
{
	uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

/* Make a device buffer from a ptr argument spec. Returns 0 or prints and returns -1. */
static int make_buffer(struct wg_device *dev, const char *spec, struct run_buf *b)
{
	char kind[16];
	unsigned long long bytes = 0, extra = 0;
	uint8_t *host = NULL;
	int n, rc = -1;

	if (!strncmp(spec, "file:", 5)) {
		FILE *f = fopen(spec + 5, "rb");
		long len;
		if (!f || fseek(f, 0, SEEK_END) || (len = ftell(f)) < 0 || fseek(f, 0, SEEK_SET)) {
			fprintf(stderr, "%s run: --arg %s: cannot read: %s\n", prog, spec, strerror(errno));
			if (f)
				fclose(f);
			return -1;
		}
		bytes = (unsigned long long)len;
		host = calloc(1, bytes ? bytes : 1);
		if (!host || fread(host, 1, bytes, f) != bytes) {
			fprintf(stderr, "%s run: --arg %s: short read\n", prog, spec);
			fclose(f);
			goto out;
		}
		fclose(f);
	} else {
		n = sscanf(spec, "%15[a-z]:%llu:%llu", kind, &bytes, &extra);
		if (n < 2 || !bytes || bytes > (1ull << 31)) {
			fprintf(stderr, "%s run: --arg %s: expected KIND:BYTES[:X] with 0 < BYTES <= 2^31\n", prog, spec);
			return -1;
		}
		host = calloc(1, bytes);
		if (!host)
			goto out;
		if (!strcmp(kind, "zeros")) {
		} else if (!strcmp(kind, "iota")) {
			for (size_t i = 0; i + 4 <= bytes; i += 4) {
				uint32_t v = (uint32_t)(i / 4);
				memcpy(host + i, &v, 4);
			}
		} else if (!strcmp(kind, "rand")) {
			uint64_t s = n == 3 ? extra : 1;
			for (size_t i = 0; i < bytes; i++)
				host[i] = (uint8_t)splitmix64(&s);
		} else if (!strcmp(kind, "fill") && n == 3) {
			uint32_t v = (uint32_t)extra;
			for (size_t i = 0; i + 4 <= bytes; i += 4)
				memcpy(host + i, &v, 4);
		} else {
			fprintf(stderr, "%s run: --arg %s: unknown buffer kind '%s', expected zeros, iota, rand, fill or file\n",
			        prog, spec, kind);
			goto out;
		}
	}
	b->bytes = bytes;
	if (wg_malloc(dev, &b->dptr, bytes ? bytes : 1) || wg_memcpy_htod(dev, b->dptr, host, bytes)) {
		fprintf(stderr, "%s run: --arg %s: %s\n", prog, spec, wg_last_error(dev));
		goto out;
	}
	rc = 0;
out:
	free(host);
	return rc;
}

/* Store a scalar argument of the parameter's type. */
static int put_scalar(const struct wg_param *p, const char *v, uint8_t *dst)
{
	char *end;
	unsigned sz = wg_ptype_size(p->type);

	errno = 0;
	if (p->type == WG_PT_F32) {
		float f = strtof(v, &end);
		if (end == v || *end)
			return -1;
		memcpy(dst, &f, 4);
	} else if (p->type == WG_PT_F64) {
		double d = strtod(v, &end);
		if (end == v || *end)
			return -1;
		memcpy(dst, &d, 8);
	} else {
		long long s = strtoll(v, &end, 0);
		if (errno == ERANGE || end == v || *end) {
			unsigned long long u = strtoull(v, &end, 0);
			if (end == v || *end)
				return -1;
			s = (long long)u;
		}
		memcpy(dst, &s, sz); /* little-endian host */
	}
	return 0;
}

static int print_summary(struct wg_device *dev, const char *kernel)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *mf = open_memstream(&buf, &len);
	unsigned long long insts = 0, tinsts = 0, ctas = 0;
	double secs = 0;
	const char *p;

	if (!mf)
		return -1;
	wg_stats_json(dev, mf);
	fclose(mf);
	/* The totals object comes first; pick its members. */
	if ((p = strstr(buf, "\"ctas\": ")))
		ctas = strtoull(p + 8, NULL, 10);
	if ((p = strstr(buf, "\"inst_executed\": ")))
		insts = strtoull(p + 17, NULL, 10);
	if ((p = strstr(buf, "\"thread_inst_executed\": ")))
		tinsts = strtoull(p + 24, NULL, 10);
	if ((p = strstr(buf, "\"host_seconds\": ")))
		secs = strtod(p + 16, NULL);
	printf("%s on %s: %llu CTAs, %llu warp instructions, %llu thread instructions, %.3f s (%.2f M warp inst/s)\n",
	       kernel, wg_target_name(dev), ctas, insts, tinsts, secs, secs > 0 ? insts / secs / 1e6 : 0.0);
	free(buf);
	return 0;
}

static int cmd_run(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "kernel", required_argument, NULL, 'k' }, { "grid", required_argument, NULL, 'g' },
		{ "block", required_argument, NULL, 'b' },  { "arg", required_argument, NULL, 'a' },
		{ "dump", required_argument, NULL, 'd' },   { "shared", required_argument, NULL, 's' },
		{ "target", required_argument, NULL, 't' }, { "config", required_argument, NULL, 'c' },
		{ "json", required_argument, NULL, 'j' },   { "retire-log", required_argument, NULL, 'r' },
		{ "quiet", no_argument, NULL, 'q' },        { "help", no_argument, NULL, 'h' },
		{ "trace-fst", required_argument, NULL, 'T' }, { "option", required_argument, NULL, 'O' },
		{ "cta-policy", required_argument, NULL, 'P' },
		{ "pg", required_argument, NULL, 'G' }, { "bet", required_argument, NULL, 'B' },
		{ 0 }
	};
	const char *kname = NULL, *target = "func", *config = NULL, *json = NULL, *retire = NULL;
	const char *args[256], *dumps[64], *options[32], *trace = NULL;
	int noptions = 0;
	int nargs = 0, ndumps = 0, quiet = 0, have_grid = 0, have_block = 0;
	unsigned long shared = 0;
	wg_dim3 grid = { 1, 1, 1 }, block = { 1, 1, 1 };
	struct wg_device *dev = NULL;
	struct wg_module *mod = NULL;
	struct run_buf bufs[256] = { { 0 } };
	uint8_t *params = NULL;
	int c, rc, status = 2;

	while ((c = getopt_long(argc, argv, "k:g:b:a:d:s:t:c:j:r:qhT:O:", opts, NULL)) != -1) {
		switch (c) {
		case 'k': kname = optarg; break;
		case 'g':
			if (parse_dim3(optarg, &grid))
				die_usage("run", "--grid expects X[,Y,Z] with unsigned integers");
			have_grid = 1;
			break;
		case 'b':
			if (parse_dim3(optarg, &block))
				die_usage("run", "--block expects X[,Y,Z] with unsigned integers");
			have_block = 1;
			break;
		case 'a':
			if (nargs == 256)
				die_usage("run", "more than 256 --arg");
			args[nargs++] = optarg;
			break;
		case 'd':
			if (ndumps == 64)
				die_usage("run", "more than 64 --dump");
			dumps[ndumps++] = optarg;
			break;
		case 's': shared = strtoul(optarg, NULL, 0); break;
		case 't': target = optarg; break;
		case 'c': config = optarg; break;
		case 'j': json = optarg; break;
		case 'r': retire = optarg; break;
		case 'q': quiet = 1; break;
		case 'T': trace = optarg; break;
		case 'O':
			if (noptions == 32 || !strchr(optarg, '='))
				die_usage("run", "--option expects KEY=VALUE (at most 32)");
			options[noptions++] = optarg;
			break;
		case 'P': {
			static char pol[64];

			if (noptions == 32 || (strcmp(optarg, "rr") && strcmp(optarg, "consolidate") &&
			                       strcmp(optarg, "congestion")))
				die_usage("run", "--cta-policy expects rr, consolidate or congestion");
			snprintf(pol, sizeof(pol), "cta_policy=%s", optarg);
			options[noptions++] = pol;
			break;
		}
		case 'G': {
			static char pg[64];

			if (noptions == 32 || (strcmp(optarg, "off") && strcmp(optarg, "normal") && strcmp(optarg, "issue") &&
			                       strcmp(optarg, "comp") && strcmp(optarg, "mix")))
				die_usage("run", "--pg expects off, normal, issue, comp or mix");
			snprintf(pg, sizeof(pg), "pg=%s", optarg);
			options[noptions++] = pg;
			break;
		}
		case 'B': {
			static char bet[64];
			char *end;
			unsigned long v = strtoul(optarg, &end, 10);

			if (noptions == 32 || *end || end == optarg || !v || v > 100000)
				die_usage("run", "--bet expects 1..100000 cycles");
			snprintf(bet, sizeof(bet), "bet_cycles=%lu", v);
			options[noptions++] = bet;
			break;
		}
		case 'h': run_help(); return 0;
		default: die_usage("run", "bad option");
		}
	}
	if (optind != argc - 1)
		die_usage("run", "expected exactly one kernel file");
	if (!have_grid || !have_block)
		die_usage("run", "--grid and --block are required");

	rc = wg_open(&dev, target, config);
	if (rc) {
		fprintf(stderr, "%s run: cannot open target '%s': %s\n", prog, target, wg_strerror(rc));
		return 2;
	}
	rc = wg_module_load(dev, &mod, argv[optind]);
	if (rc) {
		fprintf(stderr, "%s\n", wg_last_error(dev));
		goto out;
	}
	const struct wg_image *img = wg_module_image(mod);
	const struct wg_kernel *k;

	if (!kname) {
		if (img->nkernels != 1) {
			fprintf(stderr, "%s run: %s holds %u kernels; choose one with --kernel\n", prog, argv[optind],
			        img->nkernels);
			goto out;
		}
		kname = img->kernels[0].name;
	}
	k = wg_image_find(img, kname);
	if (!k) {
		fprintf(stderr, "%s run: no kernel '%s' in %s\n", prog, kname, argv[optind]);
		goto out;
	}
	if ((uint32_t)nargs != k->nparams) {
		fprintf(stderr, "%s run: kernel '%s' takes %u parameters, %d --arg given\n", prog, kname, k->nparams,
		        nargs);
		goto out;
	}
	params = calloc(1, k->param_bytes ? k->param_bytes : 1);
	if (!params)
		goto out;
	for (uint32_t i = 0; i < k->nparams; i++) {
		const struct wg_param *p = &k->params[i];
		if (p->type == WG_PT_PTR) {
			if (make_buffer(dev, args[i], &bufs[i]))
				goto out;
			memcpy(params + p->offset, &bufs[i].dptr, 8);
		} else if (p->count != 1 || put_scalar(p, args[i], params + p->offset)) {
			fprintf(stderr, "%s run: --arg %s for parameter %u '%s' (%s): expected a %s literal\n", prog,
			        args[i], i, p->name, wg_ptype_name(p->type), wg_ptype_name(p->type));
			goto out;
		}
	}
	if (trace && wg_set_option(dev, "trace_fst", trace)) {
		fprintf(stderr, "%s run: --trace-fst: %s\n", prog, wg_last_error(dev));
		goto out;
	}
	for (int i = 0; i < noptions; i++) {
		if (wg_set_option_kv(dev, options[i])) {
			fprintf(stderr, "%s run: --option %s: %s\n", prog, options[i], wg_last_error(dev));
			goto out;
		}
	}
	if (retire && wg_set_retire_log(dev, retire)) {
		fprintf(stderr, "%s run: %s\n", prog, wg_last_error(dev));
		goto out;
	}
	rc = wg_launch(dev, mod, kname, grid, block, params, k->param_bytes, (uint32_t)shared);
	if (!rc)
		rc = wg_synchronize(dev);
	status = rc ? 1 : 0;
	if (rc)
		fprintf(stderr, "%s run: %s: %s\n", prog, wg_strerror(rc), wg_last_error(dev));
	else if (!quiet)
		print_summary(dev, kname);
	/* Dumps and statistics are written even after a failed run: nothing computed is lost. */
	for (int i = 0; i < ndumps; i++) {
		char name[WG_NAME_MAX];
		const char *colon = strchr(dumps[i], ':');
		int idx = -1;
		if (!colon || colon == dumps[i] || (size_t)(colon - dumps[i]) >= sizeof(name)) {
			fprintf(stderr, "%s run: --dump %s: expected PARAM:FILE\n", prog, dumps[i]);
			status = 2;
			continue;
		}
		memcpy(name, dumps[i], colon - dumps[i]);
		name[colon - dumps[i]] = '\0';
		for (uint32_t j = 0; j < k->nparams; j++)
			if (!strcmp(k->params[j].name, name))
				idx = (int)j;
		if (idx < 0 && name[0] >= '0' && name[0] <= '9')
			idx = atoi(name);
		if (idx < 0 || (uint32_t)idx >= k->nparams || k->params[idx].type != WG_PT_PTR) {
			fprintf(stderr, "%s run: --dump %s: '%s' is not a ptr parameter of '%s'\n", prog, dumps[i], name,
			        kname);
			status = 2;
			continue;
		}
		uint8_t *host = malloc(bufs[idx].bytes ? bufs[idx].bytes : 1);
		FILE *f = host ? fopen(colon + 1, "wb") : NULL;
		if (!f || wg_memcpy_dtoh(dev, host, bufs[idx].dptr, bufs[idx].bytes) ||
		    fwrite(host, 1, bufs[idx].bytes, f) != bufs[idx].bytes) {
			fprintf(stderr, "%s run: --dump %s: cannot write\n", prog, dumps[i]);
			status = 2;
		}
		if (f)
			fclose(f);
		free(host);
	}
	if (json) {
		FILE *f = strcmp(json, "-") ? fopen(json, "w") : stdout;
		if (!f || wg_stats_json(dev, f)) {
			fprintf(stderr, "%s run: cannot write %s\n", prog, json);
			status = 2;
		}
		if (f && f != stdout)
			fclose(f);
	}
out:
	free(params);
	wg_close(dev);
	return status;
}

/* ----------------------------------------------------------- experiment */

static void experiment_help(void)
{
	puts("usage: warpgate experiment simd|cta|bet [options]\n"
	     "\n"
	     "Run the kernel programs under the power-gating policies of an experiment, read\n"
	     "their statistics (--json) back and write a CSV file, gnuplot scripts and PNG plots\n"
	     "(docs/experiments.md):\n"
	     "  simd  gating off, normal, issue, comp, mix (--pg): saved lane-cycles, slowdown\n"
	     "  cta   rr, consolidate, congestion (--cta-policy): active core-cycles, slowdown\n"
	     "  bet   one run per kernel (--pg normal): net saved lane-cycles against BET\n"
	     "\n"
	     "  -k, --kernels LIST      comma-separated programs (vecadd,cuda/bfs); default: every\n"
	     "                          program in PROGRAMS/kernels and PROGRAMS/cuda\n"
	     "  -s, --size SIZE         small or default (default: default)\n"
	     "  -t, --target NAME       gpu or sim (default: gpu for cta; sim, which reports the\n"
	     "                          lanes' power figures, for simd and bet)\n"
	     "  -o, --out DIR           output directory (default: experiments/KIND)\n"
	     "  -j, --jobs N            runs at once (default 1)\n"
	     "  -b, --bet N             --bet N for every run (simd, bet; default: the configuration's)\n"
	     "  -c, --config FILE       GPU configuration for every run\n"
	     "      --option KEY=VALUE  a target option for every run (repeatable)\n"
	     "      --programs DIR      where kernels/ and cuda/ are (default: this program's directory)\n"
	     "      --gnuplot PROG      the gnuplot to run (default: gnuplot)\n"
	     "      --no-plots          write the plot scripts, do not draw them\n"
	     "  -h, --help              this text\n"
	     "\n"
	     "A failed run is reported with its program, policy and message; the others go on.\n"
	     "Exit code: 0 every run passed, 1 a run failed or a file could not be written, 2 bad usage.");
}

static int cmd_experiment(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "kernels", required_argument, NULL, 'k' }, { "size", required_argument, NULL, 's' },
		{ "target", required_argument, NULL, 't' },  { "out", required_argument, NULL, 'o' },
		{ "jobs", required_argument, NULL, 'j' },    { "bet", required_argument, NULL, 'b' },
		{ "config", required_argument, NULL, 'c' },  { "option", required_argument, NULL, 'O' },
		{ "programs", required_argument, NULL, 'P' }, { "gnuplot", required_argument, NULL, 'G' },
		{ "no-plots", no_argument, NULL, 'N' },      { "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	struct wg_exp_opts o = { .size = "default", .jobs = 1, .gnuplot = "gnuplot" };
	static char exe_dir[PATH_MAX], out_dir[PATH_MAX];
	struct wg_exp *e;
	unsigned long v;
	char *end;
	int c, rc;

	while ((c = getopt_long(argc, argv, "k:s:t:o:j:b:c:h", opts, NULL)) != -1) {
		switch (c) {
		case 'k': o.kernels = optarg; break;
		case 's': o.size = optarg; break;
		case 't': o.target = optarg; break;
		case 'o': o.out_dir = optarg; break;
		case 'j':
			errno = 0;
			v = strtoul(optarg, &end, 10);
			if (errno || end == optarg || *end || v < 1 || v > 64)
				die_usage("experiment", "--jobs expects a number 1..64");
			o.jobs = (unsigned)v;
			break;
		case 'b':
			errno = 0;
			v = strtoul(optarg, &end, 10);
			if (errno || end == optarg || *end || v < 1 || v > 100000)
				die_usage("experiment", "--bet expects cycles 1..100000");
			o.bet = (uint32_t)v;
			break;
		case 'c': o.config = optarg; break;
		case 'O':
			if (o.noptions == WG_EXP_MAX_OPTIONS || !strchr(optarg, '='))
				die_usage("experiment", "--option expects KEY=VALUE (at most 32)");
			o.options[o.noptions++] = optarg;
			break;
		case 'P': o.prog_dir = optarg; break;
		case 'G': o.gnuplot = optarg; break;
		case 'N': o.gnuplot = NULL; break;
		case 'h': experiment_help(); return 0;
		default: die_usage("experiment", "bad option");
		}
	}
	if (optind != argc - 1)
		die_usage("experiment", "expected exactly one experiment: simd, cta or bet");
	if (wg_exp_kind_parse(argv[optind], &o.kind))
		die_usage("experiment", "unknown experiment; expected simd, cta or bet");
	if (!o.prog_dir) {
		ssize_t n = readlink("/proc/self/exe", exe_dir, sizeof(exe_dir) - 1);

		if (n <= 0) {
			fprintf(stderr, "%s experiment: cannot find this program's directory; give --programs DIR\n", prog);
			return 2;
		}
		exe_dir[n] = '\0';
		o.prog_dir = dirname(exe_dir);
	}
	if (!o.out_dir) {
		snprintf(out_dir, sizeof(out_dir), "experiments/%s", wg_exp_kind_name(o.kind));
		o.out_dir = out_dir;
	}
	e = malloc(sizeof(*e));
	if (!e) {
		fprintf(stderr, "%s experiment: out of host memory\n", prog);
		return 2;
	}
	rc = wg_exp_init(e, &o);
	if (rc) {
		fprintf(stderr, "%s experiment: %s\n", prog, e->err);
		free(e);
		return 2;
	}
	rc = wg_exp_run(e, stdout);
	free(e);
	return rc ? 1 : 0;
}

/* --------------------------------------------------------------- config */

static int cmd_config(int argc, char **argv)
{
	struct wg_config cfg;
	char err[512];

	wg_config_default(&cfg);
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			puts("usage: warpgate config [--config FILE]\n\n"
			     "Print the effective GPU configuration (the built-in GTX480 default, or FILE\n"
			     "over it) in the configuration file format (docs/config.md).");
			return 0;
		}
		if ((!strcmp(argv[i], "-c") || !strcmp(argv[i], "--config")) && i + 1 < argc) {
			if (wg_config_load(&cfg, argv[++i], err, sizeof(err))) {
				fprintf(stderr, "%s config: %s\n", prog, err);
				return 2;
			}
		} else {
			die_usage("config", "unknown argument");
		}
	}
	wg_config_write(&cfg, stdout);
	return 0;
}

/* ----------------------------------------------------------------- main */

static void main_help(void)
{
	puts("usage: warpgate COMMAND [options]\n"
	     "\n"
	     "commands:\n"
	     "  asm       assemble a .s file into a .wgk kernel image\n"
	     "  disasm    print a .wgk kernel image as assembly\n"
	     "  ptx       translate PTX (nvcc -ptx) into warpgate assembly\n"
	     "  run       run a kernel on a target and report statistics\n"
	     "  experiment  run the kernel programs under power-gating policies: CSV, table, plots\n"
	     "  config    print the effective GPU configuration\n"
	     "  targets   list the targets of this build\n"
	     "  version   print the version\n"
	     "\n"
	     "'warpgate COMMAND --help' describes each command.");
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		main_help();
		return 2;
	}
	const char *cmd = argv[1];
	argv[1] = argv[0];
	argc--;
	argv++;
	if (!strcmp(cmd, "asm"))
		return cmd_asm(argc, argv);
	if (!strcmp(cmd, "disasm"))
		return cmd_disasm(argc, argv);
	if (!strcmp(cmd, "ptx"))
		return cmd_ptx(argc, argv);
	if (!strcmp(cmd, "run"))
		return cmd_run(argc, argv);
	if (!strcmp(cmd, "config"))
		return cmd_config(argc, argv);
	if (!strcmp(cmd, "experiment"))
		return cmd_experiment(argc, argv);
	if (!strcmp(cmd, "targets")) {
		for (const struct wg_target_ops *const *t = wg_targets; *t; t++)
			printf("%-8s %s\n", (*t)->name, (*t)->description);
		return 0;
	}
	if (!strcmp(cmd, "version")) {
		printf("warpgate %d.%d\n", WG_VERSION_MAJOR, WG_VERSION_MINOR);
		return 0;
	}
	if (!strcmp(cmd, "help") || !strcmp(cmd, "-h") || !strcmp(cmd, "--help")) {
		main_help();
		return 0;
	}
	fprintf(stderr, "%s: unknown command '%s' (see '%s --help')\n", prog, cmd, prog);
	return 2;
}
