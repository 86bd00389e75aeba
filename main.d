main.o: src/cli/main.c
