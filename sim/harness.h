// sim/harness.h: the shared Verilator test harness of the RTL unit tests
// (DESIGN.md section 10).
//
//   wg::Harness<Vwg_fifo> h(argc, argv, "test_fifo");
//   h.reset();
//   h.top->in_valid_i = 1;
//   h.eval();                      // settle combinational outputs of new inputs
//   CHECK(h, h.top->in_ready_o, "ready after reset");
//   h.tick();                      // one clock cycle
//   return h.finish();             // prints "N passed, M failed", exit status
//
// Every top has clk_i and rst_ni. Options (command line or environment):
//   --trace[=FILE]   WG_TRACE=1|FILE  FST trace (default <binary dir>/<name>.fst);
//                                     the model must be built with --trace-fst
//   --seed=N         WG_SEED=N        seed of rng and of Verilator's random init
//   --timeout=N      WG_TIMEOUT=N     cycle limit (the test gives the default)
//   --scale=N        WG_SCALE=N       run random phases N times longer (scaled(n))
// A failing CHECK prints file:line, the cycle and the message; an RTL
// assertion ($error) counts as a failure at the cycle it fires, except while
// rst_ni is low (registers power up random; assertions mean nothing until
// reset); passing the cycle limit ends the test as failed. The exit status is 0 only when
// nothing failed.
#ifndef WG_SIM_HARNESS_H
#define WG_SIM_HARNESS_H

#include <verilated.h>
#if VM_TRACE_FST
#include <verilated_fst_c.h>
#endif

#include <chrono>
#include <cinttypes>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <random>
#include <string>

namespace wg {

template <class Top>
class Harness {
public:
	Top *top;
	// Called with clk_i's level each time the harness sets it: a top with other clocks that
	// have an edge at every edge of clk_i (wg_pg_acct's clk_pg_i and clk_rd_i, wg_pg_ctrl's
	// clk_pg_i) drives them from here.
	std::function<void(int)> also_clock;
	std::mt19937_64 rng;

	// name: for messages; the binary's own name when it has one (variants of
	// one test are built under different names).
	Harness(int argc, char **argv, const char *name, uint64_t default_timeout = 10000000)
	    : name_(name), timeout_(default_timeout)
	{
		if (argc > 0 && argv[0] && *argv[0]) {
			const char *slash = strrchr(argv[0], '/');
			name_ = slash ? slash + 1 : argv[0];
		}
		const char *trace = getenv("WG_TRACE");
		std::string trace_path;
		bool want_trace = trace && *trace && strcmp(trace, "0") != 0;
		if (want_trace && strcmp(trace, "1") != 0)
			trace_path = trace;
		if (const char *s = getenv("WG_SEED"))
			seed_ = strtoull(s, nullptr, 0);
		if (const char *s = getenv("WG_TIMEOUT"))
			timeout_ = strtoull(s, nullptr, 0);
		if (const char *s = getenv("WG_SCALE"))
			scale_ = strtoull(s, nullptr, 0);
		for (int i = 1; i < argc; i++) {
			const char *a = argv[i];
			if (!strcmp(a, "--trace")) {
				want_trace = true;
			} else if (!strncmp(a, "--trace=", 8)) {
				want_trace = true;
				trace_path = a + 8;
			} else if (!strncmp(a, "--seed=", 7)) {
				seed_ = strtoull(a + 7, nullptr, 0);
			} else if (!strncmp(a, "--timeout=", 10)) {
				timeout_ = strtoull(a + 10, nullptr, 0);
			} else if (!strncmp(a, "--scale=", 8)) {
				scale_ = strtoull(a + 8, nullptr, 0);
			} else if (a[0] == '-' && a[1] == '-') {
				fprintf(stderr, "%s: unknown option %s (--trace[=FILE] --seed=N --timeout=N --scale=N)\n",
				        name_.c_str(), a);
				exit(2);
			}
		}
		if (scale_ < 1)
			scale_ = 1;
		timeout_ *= scale_;
		rng.seed(seed_);

		ctx_.reset(new VerilatedContext);
		ctx_->debug(0);
		ctx_->fatalOnError(false); // $error is counted as a failure, the test goes on
		ctx_->errorLimit(1 << 30);
		ctx_->randReset(2);        // with --x-initial unique: random power-up state
		ctx_->randSeed(static_cast<int>(seed_ & 0x7fffffff) | 1);
		ctx_->commandArgs(1, argv);
		top = new Top(ctx_.get(), "top");

		if (want_trace) {
#if VM_TRACE_FST
			if (trace_path.empty()) {
				std::string dir(argv[0]);
				size_t slash = dir.rfind('/');
				dir = slash == std::string::npos ? std::string(".") : dir.substr(0, slash);
				trace_path = dir + "/" + name_ + ".fst";
			}
			ctx_->traceEverOn(true);
			trace_ = new VerilatedFstC;
			top->trace(trace_, 99);
			trace_->open(trace_path.c_str());
			printf("%s: tracing to %s\n", name_.c_str(), trace_path.c_str());
#else
			fprintf(stderr, "%s: built without --trace-fst, no trace written\n", name_.c_str());
#endif
		}
		start_ = std::chrono::steady_clock::now();
		printf("%s: seed %" PRIu64 "\n", name_.c_str(), seed_);
	}

	~Harness()
	{
		close();
	}

	Harness(const Harness &) = delete;
	Harness &operator=(const Harness &) = delete;

	const char *name() const { return name_.c_str(); }
	uint64_t cycle() const { return cycle_; }
	uint64_t seed() const { return seed_; }

	// Settle combinational logic after inputs changed (clock unchanged).
	void eval()
	{
		top->eval();
	}

	// One clock cycle: clock low (inputs settle), then the rising edge.
	void tick()
	{
		top->clk_i = 0;
		if (also_clock)
			also_clock(0);
		top->eval();
		dump();
		top->clk_i = 1;
		if (also_clock)
			also_clock(1);
		top->eval();
		dump();
		cycle_++;
		if (ctx_->errorCount() != errors_seen_) {
			errors_seen_ = ctx_->errorCount();
			if (top->rst_ni)
				fail_here("RTL assertion", cycle_);
			else
				printf("%s: cycle %" PRIu64 ": RTL assertion during reset ignored\n", name_.c_str(), cycle_);
		}
		if (cycle_ >= timeout_) {
			printf("%s: TIMEOUT after %" PRIu64 " cycles\n", name_.c_str(), cycle_);
			failed_++;
			exit(finish());
		}
	}

	void ticks(uint64_t n)
	{
		while (n--)
			tick();
	}

	// Reset: rst_ni low for `cycles` clock cycles. Inputs are left as the test set them.
	void reset(unsigned cycles = 4)
	{
		top->rst_ni = 0;
		top->clk_i = 0;
		if (also_clock)
			also_clock(0);
		top->eval();
		ticks(cycles);
		errors_seen_ = ctx_->errorCount(); // from power-up and reset: not failures
		top->rst_ni = 1;
		top->eval();
	}

	// Tick until cond() holds (checked before each tick); false after max cycles.
	template <class F>
	bool wait_until(F cond, uint64_t max_cycles)
	{
		for (uint64_t i = 0; i < max_cycles; i++) {
			eval();
			if (cond())
				return true;
			tick();
		}
		eval();
		return cond();
	}

	// Length of a random phase: n, times --scale.
	uint64_t scaled(uint64_t n) const { return n * scale_; }

	uint64_t rand(uint64_t n) { return n ? rng() % n : 0; } // 0..n-1
	bool chance(unsigned percent) { return rng() % 100 < percent; }

	// CHECK backend: counts, and prints the first failures with file:line and cycle.
	bool check(bool ok, const char *file, int line, const char *expr, const char *fmt, ...)
	{
		if (ok) {
			passed_++;
			return true;
		}
		failed_++;
		if (failed_ <= kMaxReports) {
			printf("%s:%d: cycle %" PRIu64 ": CHECK(%s) failed", file, line, cycle_, expr);
			if (fmt && *fmt) {
				va_list ap;
				va_start(ap, fmt);
				printf(": ");
				vprintf(fmt, ap);
				va_end(ap);
			}
			printf("\n");
		} else if (failed_ == kMaxReports + 1) {
			printf("%s: further failures not shown\n", name_.c_str());
		}
		return false;
	}

	unsigned passed() const { return passed_; }
	unsigned failed() const { return failed_; }

	// Final report; returns the process exit status.
	int finish()
	{
		close();
		double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
		printf("%s: seed %" PRIu64 ", %" PRIu64 " cycles, %.2f s\n", name_.c_str(), seed_, cycle_, secs);
		printf("%u passed, %u failed\n", passed_, failed_);
		fflush(stdout);
		return failed_ ? 1 : 0;
	}

private:
	static constexpr unsigned kMaxReports = 20;
	std::string name_;
	uint64_t seed_ = 1;
	uint64_t timeout_;
	uint64_t scale_ = 1;
	uint64_t cycle_ = 0;
	int errors_seen_ = 0;
	unsigned passed_ = 0, failed_ = 0;
	std::unique_ptr<VerilatedContext> ctx_;
	std::chrono::steady_clock::time_point start_;
#if VM_TRACE_FST
	VerilatedFstC *trace_ = nullptr;
#endif

	void dump()
	{
#if VM_TRACE_FST
		if (trace_)
			trace_->dump(ctx_->time());
#endif
		ctx_->timeInc(1);
	}

	void fail_here(const char *what, uint64_t cyc)
	{
		failed_++;
		if (failed_ <= kMaxReports)
			printf("%s: cycle %" PRIu64 ": %s failed (message above)\n", name_.c_str(), cyc, what);
	}

	void close()
	{
		if (!top)
			return;
		top->final();
#if VM_TRACE_FST
		if (trace_) {
			trace_->close();
			delete trace_;
			trace_ = nullptr;
		}
#endif
		delete top;
		top = nullptr;
	}
};

} // namespace wg

// CHECK(h, cond[, printf-format, args...])
#define CHECK(h, cond, ...) (h).check(!!(cond), __FILE__, __LINE__, #cond, "" __VA_ARGS__)

#endif
