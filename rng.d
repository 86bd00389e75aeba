rng.o: src/sim/rng.c src/sim/rng.h

src/sim/rng.h:
