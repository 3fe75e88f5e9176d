// test_pg_ctrl: wg_pg_ctrl (docs/power-gating.md section 2), 2 units x 4 lanes, directed
// scenarios with hand-worked cycle numbers. Cycle k of a scenario is the k-th call of step()
// after its reset: inputs are applied, the outputs of that cycle are checked, then the clock
// edge. Lanes that a scenario does not use hold work (state active, always on), so they
// never interfere.
//
//   idle_detect_5_sleeps_after_five_idle_cycles_and_wakes_in_3
//   idle_detect_0_sleeps_after_one_idle_cycle, wakeup_0_is_on_the_cycle_after_demand
//   blackout_holds_a_lane_asleep_bet_cycles (and without blackout it wakes at once)
//   demand_while_waking_does_not_restart_the_wake_up
//   hold_and_demand_keep_an_idle_lane_awake
//   policy_off_never_sleeps, may_sleep_sleeps_with_policy_off_and_wakes_when_it_falls
//   unit_sleeps_only_when_all_its_lanes_sleep_events_counted_once
//   core_sleeps_after_idle_detect_and_a_launch_waits_the_wake_up
#include "Vwg_pg_ctrl.h"
#include "harness.h"

#include <vector>

namespace {

constexpr unsigned NS = 2, W = 4, NL = NS * W;
using H = wg::Harness<Vwg_pg_ctrl>;
enum { ACTIVE = 0, IDLE = 1, SLEEP = 2, WAKE = 3 };
const char *sname[4] = {"active", "idle", "sleep", "wake"};

struct In {
	unsigned work = (1u << NL) - 1; // every lane busy unless a scenario says otherwise
	unsigned hold = 0, demand = 0, may_sleep = 0;
	bool core_idle = false, core_demand = false;
};

struct Ctl {
	bool lane = true, unit = false, core = false, blackout = false;
	unsigned bet = 10, idle = 5, wakeup = 3;
};

struct Out {
	unsigned state[NL];
	unsigned on, unit_sleep;
	bool core_on, core_sleep;
};

void setup(H &h, const Ctl &c)
{
	auto *t = h.top;
	t->pol_lane_i = c.lane;
	t->pol_unit_i = c.unit;
	t->pol_core_i = c.core;
	t->blackout_i = c.blackout;
	t->bet_i = c.bet;
	t->idle_detect_i = c.idle;
	t->wakeup_i = c.wakeup;
	t->work_i = (1u << NL) - 1;
	t->hold_i = 0;
	t->demand_i = 0;
	t->may_sleep_i = 0;
	t->core_idle_i = 0;
	t->core_demand_i = 0;
	t->clear_i = 0;
	t->en_i = 1;
	h.reset();
}

Out step(H &h, const In &in)
{
	auto *t = h.top;
	t->work_i = in.work;
	t->hold_i = in.hold;
	t->demand_i = in.demand;
	t->may_sleep_i = in.may_sleep;
	t->core_idle_i = in.core_idle;
	t->core_demand_i = in.core_demand;
	h.eval();
	Out o;
	for (unsigned l = 0; l < NL; l++)
		o.state[l] = (t->lane_state_o >> (2 * l)) & 3;
	o.on = t->lane_on_o;
	o.unit_sleep = t->unit_sleep_o;
	o.core_on = t->core_on_o;
	o.core_sleep = t->core_sleep_o;
	h.tick();
	return o;
}

// Lane l's state in each cycle of a run of n cycles with inputs from f(cycle).
template <class F>
std::vector<Out> run(H &h, unsigned n, F f)
{
	std::vector<Out> v;
	for (unsigned k = 0; k < n; k++) {
		In in;
		f(k, in);
		v.push_back(step(h, in));
	}
	return v;
}

// Expected state of lane 0 per cycle, as a string: a active, i idle, s sleep, w wake.
void expect_lane(H &h, const std::vector<Out> &v, unsigned lane, const char *exp, const char *what)
{
	static const char code[4] = {'a', 'i', 's', 'w'};
	std::string got;
	for (const Out &o : v)
		got += code[o.state[lane]];
	CHECK(h, got == exp, "%s: lane %u states\n  got      %s\n  expected %s", what, lane, got.c_str(), exp);
	// lane_on_o is exactly "active or idle".
	for (size_t k = 0; k < v.size(); k++) {
		bool on = (v[k].on >> lane) & 1;
		CHECK(h, on == (v[k].state[lane] <= IDLE), "%s: cycle %zu lane_on %d with state %s", what, k, on,
		      sname[v[k].state[lane]]);
	}
}

uint64_t word48(const VlWide<3> &w, unsigned i)
{
	uint64_t v = 0;
	for (unsigned b = 0; b < 48; b++) {
		unsigned bit = i * 48 + b;
		v |= static_cast<uint64_t>(w[bit / 32] >> (bit % 32) & 1) << b;
	}
	return v;
}

void idle_detect_5(H &h)
{
	// idle 5, wakeup 3. Lane 0 works in cycles 0..2; idle 3..7 (the count reaches 5 in
	// cycle 7), asleep from 8. One cycle of demand in 12: wake 13..15, on (idle) from 16;
	// with nothing to do it is idle 16..20 and asleep again from 21.
	setup(h, Ctl{});
	auto v = run(h, 24, [](unsigned k, In &in) {
		if (k > 2)
			in.work &= ~1u;
		if (k == 12)
			in.demand = 1;
	});
	expect_lane(h, v, 0, "aaaiiiiissssswwwiiiiisss", "idle_detect_5");
}

void idle_detect_0(H &h)
{
	// idle 0 (= 1: the detecting cycle), wakeup 0. Work in 0..1, idle 2, asleep from 3.
	// Demand from cycle 5 on: still asleep in 5, on from 6 (the cycle after the demand),
	// idle while the demand stays (demand keeps it awake).
	Ctl c;
	c.idle = 0;
	c.wakeup = 0;
	setup(h, c);
	auto v = run(h, 10, [](unsigned k, In &in) {
		in.work &= ~1u;
		if (k < 2)
			in.work |= 1;
		if (k >= 5)
			in.demand = 1;
	});
	expect_lane(h, v, 0, "aaisssiiii", "idle_detect_0");
}

void blackout(H &h)
{
	// idle 1, wakeup 2, BET 10. Work in cycle 0, idle 1, asleep from 2. Demand from 4 on.
	// With blackout: asleep 2..11 (10 cycles: the count reaches 10 in cycle 11), wake 12..13,
	// on from 14. Without: the demand in 4 wakes it at once: wake 5..6, on from 7.
	for (int bo = 1; bo >= 0; bo--) {
		Ctl c;
		c.idle = 1;
		c.wakeup = 2;
		c.bet = 10;
		c.blackout = bo;
		setup(h, c);
		auto v = run(h, 16, [](unsigned k, In &in) {
			in.work &= ~1u;
			if (k == 0)
				in.work |= 1;
			if (k >= 4)
				in.demand = 1;
		});
		if (bo)
			expect_lane(h, v, 0, "aisssssssssswwii", "blackout on");
		else
			expect_lane(h, v, 0, "aissswwiiiiiiiii", "blackout off");
	}
}

void demand_while_waking(H &h)
{
	// idle 2, wakeup 4. Work in 0, idle 1..2, asleep 3.. . Demand in 5 only: wake 6..9, on
	// from 10. Demand pulses in 7 and 9 (while waking) change nothing.
	Ctl c;
	c.idle = 2;
	c.wakeup = 4;
	setup(h, c);
	auto v = run(h, 12, [](unsigned k, In &in) {
		in.work &= ~1u;
		if (k == 0)
			in.work |= 1;
		if (k == 5 || k == 7 || k == 9)
			in.demand = 1;
	});
	expect_lane(h, v, 0, "aiissswwwwii", "demand_while_waking");
}

void hold_and_demand(H &h)
{
	// idle 3. Lane 0: no work at all; hold in cycles 0..9, demand in 10..14: idle 0..17 (the
	// count starts in 15: 15, 16, 17), asleep from 18.
	Ctl c;
	c.idle = 3;
	setup(h, c);
	auto v = run(h, 20, [](unsigned k, In &in) {
		in.work &= ~1u;
		if (k < 10)
			in.hold = 1;
		else if (k < 15)
			in.demand = 1;
	});
	expect_lane(h, v, 0, "iiiiiiiiiiiiiiiiiiss", "hold_and_demand");
}

void may_sleep(H &h)
{
	// Policy off: a lane idle for 100 cycles stays on.
	Ctl c;
	c.lane = false;
	c.idle = 2;
	c.wakeup = 1;
	setup(h, c);
	auto v = run(h, 100, [](unsigned, In &in) { in.work &= ~1u; });
	std::string idle100(100, 'i');
	expect_lane(h, v, 0, idle100.c_str(), "policy off");
	// Policy off, may_sleep (out of use) in 0..9: idle 0..1, asleep 2..9; may_sleep falls in
	// 10: that cycle asleep still (it starts the wake-up), wake 11, on from 12.
	setup(h, c);
	v = run(h, 14, [](unsigned k, In &in) {
		in.work &= ~1u;
		if (k < 10)
			in.may_sleep = 1;
	});
	expect_lane(h, v, 0, "iissssssssswii", "may_sleep"); // i i, s x 9 (2..10), w (11), i i
}

void unit_level(H &h)
{
	// idle 2, wakeup 2, unit policy on. Lanes 0..3 (unit 0) work until cycle 2l: lane l idle
	// 2l+1, 2l+2, asleep from 2l+3: lane 3 last, from 9, so unit 0 sleeps from 9. Unit 1's
	// lanes work: it never sleeps. Demand on lane 2 in cycle 20: unit 0 sleeps 9..20 (12
	// cycles, lane 2 leaves in 21), lane 2 wakes 21..22, on 23, idle 23..24, asleep from 25:
	// unit 0 sleeps again from 25; up to cycle 29: 5 more cycles. Events: 2.
	Ctl c;
	c.unit = true;
	c.idle = 2;
	c.wakeup = 2;
	setup(h, c);
	auto v = run(h, 30, [](unsigned k, In &in) {
		for (unsigned l = 0; l < W; l++)
			if (k > 2 * l)
				in.work &= ~(1u << l);
		if (k == 20)
			in.demand = 1u << 2;
	});
	std::string got, exp;
	for (unsigned k = 0; k < 30; k++) {
		got += (v[k].unit_sleep & 1) ? 's' : '-';
		exp += ((k >= 9 && k <= 20) || k >= 25) ? 's' : '-';
		CHECK(h, !(v[k].unit_sleep & 2), "unit 1 asleep in cycle %u", k);
	}
	CHECK(h, got == exp, "unit 0 sleep\n  got      %s\n  expected %s", got.c_str(), exp.c_str());
	h.eval();
	CHECK(h, word48(h.top->unit_sleep_cnt_o, 0) == 17, "unit 0 sleep cycles %llu, expected 12 + 5",
	      (unsigned long long)word48(h.top->unit_sleep_cnt_o, 0));
	CHECK(h, word48(h.top->unit_events_o, 0) == 2, "unit 0 events %llu, expected 2",
	      (unsigned long long)word48(h.top->unit_events_o, 0));
	CHECK(h, word48(h.top->unit_sleep_cnt_o, 1) == 0 && word48(h.top->unit_events_o, 1) == 0, "unit 1 counted");
	// clear_i zeroes the counters.
	h.top->clear_i = 1;
	h.tick();
	h.top->clear_i = 0;
	h.eval();
	CHECK(h, word48(h.top->unit_sleep_cnt_o, 0) == 0 && word48(h.top->unit_events_o, 0) == 0, "clear");
	// Unit policy off: the same lanes sleep, the unit does not.
	c.unit = false;
	setup(h, c);
	v = run(h, 30, [](unsigned k, In &in) {
		for (unsigned l = 0; l < W; l++)
			if (k > 2 * l)
				in.work &= ~(1u << l);
	});
	CHECK(h, v[29].state[3] == SLEEP && v[29].unit_sleep == 0, "unit policy off: unit asleep");
}

void core_level(H &h)
{
	// idle 3, wakeup 2, core policy on. core_idle from 0: idle 0..2, asleep from 3. A launch
	// offered from 6 until the core is on: asleep 3..6 (4 cycles, one event), wake 7..8, on 9:
	// 3 stall cycles (6, 7, 8). Then busy (not idle): stays on.
	Ctl c;
	c.core = true;
	c.idle = 3;
	c.wakeup = 2;
	setup(h, c);
	std::string got;
	for (unsigned k = 0; k < 14; k++) {
		In in;
		in.core_idle = k < 9;
		in.core_demand = k >= 6 && k <= 8; // offered until the core is on (9)
		Out o = step(h, in);
		got += o.core_on ? 'o' : o.core_sleep ? 's' : 'w';
	}
	CHECK(h, got == "ooosssswwooooo", "core states\n  got      %s\n  expected ooosssswwooooo", got.c_str());
	h.eval();
	CHECK(h, h.top->core_sleep_cnt_o == 4, "core sleep %llu, expected 4", (unsigned long long)h.top->core_sleep_cnt_o);
	CHECK(h, h.top->core_events_o == 1, "core events %llu", (unsigned long long)h.top->core_events_o);
	CHECK(h, h.top->core_wake_stall_o == 3, "core wake stall %llu, expected 3",
	      (unsigned long long)h.top->core_wake_stall_o);
}

} // namespace

int main(int argc, char **argv)
{
	H h(argc, argv, "test_pg_ctrl");
	h.also_clock = [&h](int v) { h.top->clk_pg_i = v; }; // every edge of clk_i (wg_pg_ctrl)
	idle_detect_5(h);
	idle_detect_0(h);
	blackout(h);
	demand_while_waking(h);
	hold_and_demand(h);
	may_sleep(h);
	unit_level(h);
	core_level(h);
	return h.finish();
}
