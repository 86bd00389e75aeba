test_cost.o: tests/unit/test_cost.c tests/unit/harness.h src/sim/cost.h \
  src/sim/costs.def src/sim/rng.h

tests/unit/harness.h:

src/sim/cost.h:

src/sim/costs.def:

src/sim/rng.h:
