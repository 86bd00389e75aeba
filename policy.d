policy.o: src/mm/policy.c src/mm/policy.h

src/mm/policy.h:
