sysctl.o: src/mm/sysctl.c src/mm/sysctl.h src/sim/option.h src/sim/sim.h \
  src/sim/cost.h src/sim/costs.def src/sim/debug.h

src/mm/sysctl.h:

src/sim/option.h:

src/sim/sim.h:

src/sim/cost.h:

src/sim/costs.def:

src/sim/debug.h:
