debug.o: src/sim/debug.c src/sim/debug.h

src/sim/debug.h:
