cost.o: src/sim/cost.c src/sim/cost.h src/sim/costs.def

src/sim/cost.h:

src/sim/costs.def:
