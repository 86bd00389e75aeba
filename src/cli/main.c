/* SPDX-License-Identifier: MIT */
/*
 * main.c — the slowpath command line (placeholder until the CLI lands:
 * prints version and help).
 */
#include <stdio.h>
#include <string.h>

#define SLOWPATH_VERSION "0.1.0-dev"

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "--version") == 0) {
		printf("slowpath %s\n", SLOWPATH_VERSION);
		return 0;
	}
	printf("usage: slowpath <command> [options]\n");
	return argc > 1 ? 2 : 0;
}
