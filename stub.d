stub.o: src/sim/stub.c src/sim/sim.h src/sim/cost.h src/sim/costs.def \
  src/sim/debug.h

src/sim/sim.h:

src/sim/cost.h:

src/sim/costs.def:

src/sim/debug.h:
