#!/bin/sh
# [machine] initial_state=DIR (docs/initial-state.md): a run starts from a
# recorded snapshot.  The first monitor sample (time 0, before any task
# ran) must show the recording:
#   - at 1/1 (the recorded VM's zones: DMA 8, DMA32 1528, Normal 10752
#     pageblocks; the record folder's Normal lists 1856), proc-buddyinfo
#     and proc-pagetypeinfo are the plain copies byte for byte, and a
#     record folder's last sample;
#   - at about 1/4 (DMA 8, DMA32 382, Normal 2682 pageblocks) every free
#     count and block count is the scaling rule's, computed here in awk
#     from the fixture (pageblocks: cumulative rounding in type order;
#     free blocks: from order 10 down, rounded down with the remainder
#     carried as pages to the order below);
# and bad snapshots stop check and run with exit status 2 and one line
# naming the file (and line) at fault, writing nothing.
. tests/suites/0000-cli.inc
cli_init "$1" 5003-initial-state

PROC=tests/fixtures/proc/linux-6.18
REC=tests/fixtures/results/recorded-pgbench-local

scn() {	# FILE MEMORY ZONES DIR
	printf '[global]\nduration=10ms\nsample_interval=10ms\n[machine]\nmemory=%s\ncpus=2\nzones=%s\ninitial_state=%s\n' \
		"$2" "$3" "$4" >"$1"
}
sample() {	# MONITOR-FILE K: the text of sample K (1-based)
	awk -v k="$2" '/^time:/{n++; next} n==k' "$1"
}
last_sample() {	# MONITOR-FILE
	awk '/^time:/{n++; buf=""; next} {buf = buf $0 "\n"} END{printf "%s", buf}' "$1"
}

# ---- 1/1: the recording itself --------------------------------------------------
scn "$TMP/id.ini" 24g DMA:16m,DMA32:3056m,Normal:rest "$PROC"
"$SP" run "$TMP/id.ini" --out "$TMP/id" >/dev/null 2>"$TMP/id.err"
check "1/1 plain copies: run exits 0, no note" "[ -s '$TMP/id/result.json' ] && [ ! -s '$TMP/id.err' ]"
sample "$TMP/id/proc-buddyinfo" 1 >"$TMP/id.buddy"
sample "$TMP/id/proc-pagetypeinfo" 1 >"$TMP/id.ptype"
check "1/1: first proc-buddyinfo sample = buddyinfo" "cmp -s '$TMP/id.buddy' '$PROC/buddyinfo'"
check "1/1: first proc-pagetypeinfo sample = pagetypeinfo" "cmp -s '$TMP/id.ptype' '$PROC/pagetypeinfo'"

# its Normal zone lists 1856 pageblocks (the VM's managed ones): 3712m
scn "$TMP/rec.ini" 6784m DMA:16m,DMA32:3056m,Normal:rest "$REC"
"$SP" run "$TMP/rec.ini" --out "$TMP/rec" >/dev/null 2>"$TMP/rec.err"
last_sample "$REC/proc-buddyinfo" >"$TMP/rec.want"
sample "$TMP/rec/proc-buddyinfo" 1 >"$TMP/rec.buddy"
check "1/1 record folder: first proc-buddyinfo sample = the recording's last" \
	"[ ! -s '$TMP/rec.err' ] && cmp -s '$TMP/rec.buddy' '$TMP/rec.want'"
last_sample "$REC/proc-pagetypeinfo" >"$TMP/rec.want"
sample "$TMP/rec/proc-pagetypeinfo" 1 >"$TMP/rec.ptype"
check "1/1 record folder: first proc-pagetypeinfo sample = the recording's last" \
	"cmp -s '$TMP/rec.ptype' '$TMP/rec.want'"

# ---- about 1/4: the scaling rule -------------------------------------------------
# zone pageblocks of the scenario: DMA 16m = 8, DMA32 764m = 382, Normal the rest of 6g = 2682
scn "$TMP/q.ini" 6g DMA:16m,DMA32:764m,Normal:rest "$PROC"
"$SP" run "$TMP/q.ini" --out "$TMP/q" >/dev/null 2>"$TMP/q.err"
check "1/4: run exits 0, no note (nothing had to move)" "[ -s '$TMP/q/result.json' ] && [ ! -s '$TMP/q.err' ]"
# expected tables: the free rows and block rows of pagetypeinfo, scaled
awk -v DMA=8 -v DMA32=382 -v Normal=2682 '
/^Node .*type/ { z = $4; sub(",", "", z); t = $6; nt[z]++; tn[z, nt[z]] = t
		 for (o = 0; o < 11; o++) f[z, t, o] = $(7 + o); next }
/^Node / && blk { z = $4; R = 0; for (i = 5; i <= NF; i++) { b[z, i] = $i; R += $i }
		  rz[z] = R; nz[z] = NF; zs[++nzones] = z; next }
/^Number of blocks/ { blk = 1 }
END {
	split("", u); u["DMA"] = DMA; u["DMA32"] = DMA32; u["Normal"] = Normal
	for (k = 1; k <= nzones; k++) {
		z = zs[k]; R = rz[z]; U = u[z]
		for (i = 1; i <= nt[z]; i++) {
			t = tn[z, i]; carry = 0; line = sprintf("%s %s", z, t)
			for (o = 10; o >= 0; o--) {
				want = f[z, t, o] * 2^o * U + carry
				c[o] = int(want / (R * 2^o)); carry = want - c[o] * R * 2^o
			}
			for (o = 0; o < 11; o++) line = line " " c[o]
			print line
		}
		cum = 0; done = 0; line = sprintf("%s blocks", z)
		for (i = 5; i <= nz[z]; i++) { cum += b[z, i]; upto = int(cum * U / R); line = line " " (upto - done); done = upto }
		print line
	}
}' "$PROC/pagetypeinfo" >"$TMP/q.want"
sample "$TMP/q/proc-pagetypeinfo" 1 | awk '
/^Node .*type/ { z = $4; sub(",", "", z); line = z " " $6; for (o = 7; o <= NF; o++) line = line " " $o; print line; next }
/^Number of blocks/ { blk = 1; next }
/^Node / && blk { line = $4 " blocks"; for (i = 5; i <= NF; i++) line = line " " $i; print line }' |
	sort >"$TMP/q.got"
sort "$TMP/q.want" >"$TMP/q.want.s"
check "1/4: every free count (zone x type x order) and block count is the rule's ($(wc -l <"$TMP/q.want.s") rows)" \
	"[ -s '$TMP/q.want.s' ] && diff '$TMP/q.want.s' '$TMP/q.got'"
"$SP" run "$TMP/q.ini" --out "$TMP/q2" >/dev/null 2>&1
check "1/4: a second run builds the same state (monitors byte for byte)" \
	"cmp -s '$TMP/q/proc-pagetypeinfo' '$TMP/q2/proc-pagetypeinfo' && cmp -s '$TMP/q/proc-meminfo' '$TMP/q2/proc-meminfo'"
check "1/4: check accepts the scenario and prints the key" \
	"'$SP' check '$TMP/q.ini' | grep -q '^initial_state *= *$PROC'"

# ---- a fit that needs changes says so on stderr ---------------------------------
scn "$TMP/small.ini" 1g DMA:4m,DMA32:8m,Normal:rest "$PROC"
"$SP" run "$TMP/small.ini" --out "$TMP/small" >/dev/null 2>"$TMP/small.err"
check "a 1 GiB machine with 2- and 4-pageblock DMA zones runs and notes what it left allocated" \
	"[ -s '$TMP/small/result.json' ] && grep -q '^note: initial_state: $PROC/pagetypeinfo:5: to fit the scaled recording, 0 pageblocks changed type and 64 free pages were left allocated$' '$TMP/small.err'"

# ---- bad snapshots ----------------------------------------------------------------
mkdir "$TMP/bad" "$TMP/empty" "$TMP/norec" "$TMP/tight" "$TMP/contra"
# tight: DMA's 8 pageblocks all Unmovable with 16 free order-8 blocks, which
# no kernel can show (two in one pageblock would have merged)
cp "$PROC/buddyinfo" "$PROC/pagetypeinfo" "$TMP/tight/"
sed -i -e '1s/.*/Node 0, zone      DMA      0      0      0      0      0      0      0      0     16      0      0 /' "$TMP/tight/buddyinfo"
sed -i -e '5s/  1      0      0 $/ 16      0      0 /' -e '6s/  0      1      3 $/  0      0      0 /' \
	-e 's/^Node 0, zone      DMA            1            7/Node 0, zone      DMA            8            0/' "$TMP/tight/pagetypeinfo"
# contra: DMA lists its 3840 free pages in 1 pageblock
cp "$PROC/buddyinfo" "$PROC/pagetypeinfo" "$TMP/contra/"
sed -i 's/^Node 0, zone      DMA            1            7/Node 0, zone      DMA            1            0/' "$TMP/contra/pagetypeinfo"
cp "$PROC/pagetypeinfo" "$TMP/bad/pagetypeinfo"
sed '3s/1726/2726/' "$PROC/buddyinfo" >"$TMP/bad/buddyinfo"
: >"$TMP/norec/proc-pagetypeinfo"
: >"$TMP/norec/proc-buddyinfo"

scn "$TMP/e.ini" 1g DMA:16m,DMA32:256m,Normal:rest "$TMP/none"
expect "a missing directory is an error at the key" 2 \
	"$TMP/e.ini:8: initial_state '$TMP/none': No such file or directory" "$SP" run "$TMP/e.ini" --out "$TMP/o1"
expect "check refuses it the same way" 2 \
	"$TMP/e.ini:8: initial_state '$TMP/none': No such file or directory" "$SP" check "$TMP/e.ini"
expect "a directory without pagetypeinfo" 2 \
	"--set 'initial_state=$TMP/empty': initial_state '$TMP/empty': neither a \`slowpath record\` folder (no proc-pagetypeinfo) nor a directory of /proc copies (no pagetypeinfo)" \
	"$SP" run "$TMP/e.ini" --set initial_state="$TMP/empty" --out "$TMP/o2"
expect "buddyinfo and pagetypeinfo of different moments" 2 \
	"$TMP/bad/buddyinfo:3: node 0 zone 'Normal' order 2: 2726 free blocks, but $TMP/bad/pagetypeinfo:15 counts 1726 over its migrate types; the files disagree by more than reads one after the other explain (32 blocks or 10 %): were they taken at the same time, on the same machine?" \
	"$SP" run "$TMP/e.ini" --set initial_state="$TMP/bad" --out "$TMP/o3"
expect "a recorded zone the scenario lacks" 2 \
	"$PROC/pagetypeinfo:5: zone 'DMA' of the recording is not among the scenario's zones (Normal); give [machine] zones= the recording's zones" \
	"$SP" run "$TMP/e.ini" --set initial_state="$PROC" --set zones=Normal:rest --out "$TMP/o4"
expect "a record folder with no samples" 2 \
	"$TMP/norec/proc-pagetypeinfo:1: no samples (empty file)" \
	"$SP" run "$TMP/e.ini" --set initial_state="$TMP/norec" --out "$TMP/o5"
expect "a zone too small for the scaled recording" 2 \
	"$TMP/tight/pagetypeinfo:5: zone 'DMA': the recording scaled to the scenario's 8 pageblocks does not fit: its Unmovable free blocks need more pageblocks than the other types can spare (over 1024 free pages would have to go); give the zone more memory ([machine] zones=)" \
	"$SP" run "$TMP/e.ini" --set initial_state="$TMP/tight" --out "$TMP/o6"
expect "more free pages than pageblocks" 2 \
	"$TMP/contra/pagetypeinfo:5: zone 'DMA' lists 3840 free pages in 1 pageblock (512 pages): the file contradicts itself" \
	"$SP" run "$TMP/e.ini" --set initial_state="$TMP/contra" --out "$TMP/o8"
# a malformed last sample of a record folder: the line is the whole file's
{ cat "$REC/proc-buddyinfo"; echo "time: 1795982336"; last_sample "$REC/proc-buddyinfo"; } >"$TMP/norec/proc-buddyinfo"
{ cat "$REC/proc-pagetypeinfo"; echo "time: 1795982336"; echo "Page block order: 9"; echo "garbage"; } \
	>"$TMP/norec/proc-pagetypeinfo"
n=$(($(wc -l <"$REC/proc-pagetypeinfo") + 3))
expect "a malformed pagetypeinfo sample is reported at its line in the monitor file" 2 \
	"$TMP/norec/proc-pagetypeinfo:$n: unexpected line 'garbage'" \
	"$SP" run "$TMP/e.ini" --set initial_state="$TMP/norec" --out "$TMP/o7"
check "no result folder was written for any refused snapshot" \
	"[ ! -e '$TMP/o1' ] && [ ! -e '$TMP/o2' ] && [ ! -e '$TMP/o3' ] && [ ! -e '$TMP/o4' ] && [ ! -e '$TMP/o5' ] && [ ! -e '$TMP/o6' ] && [ ! -e '$TMP/o7' ] && [ ! -e '$TMP/o8' ]"

cli_done
