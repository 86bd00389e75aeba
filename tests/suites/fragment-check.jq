# input: compare --shape --json of (real, model); args: $zone, $tp (relative), $tu (absolute)
def rel(a; b): if a == 0 then (if b == 0 then 0 else 1e9 end) else ((b - a) / a) end;
def rows(w; $lbl):
  (w.zones[] | select(.zone == $zone) | .results) as $r
  | ($r[0]) as $a | ($r[1]) as $b
  | ( ["free_pages", $a.free_pages, $b.free_pages, rel($a.free_pages; $b.free_pages), "rel", $tp],
      ["Movable_free_pages", $a.types.Movable.free_pages, $b.types.Movable.free_pages,
         rel($a.types.Movable.free_pages; $b.types.Movable.free_pages), "rel", $tp],
      ["order10_free_blocks", $a.free_blocks[10], $b.free_blocks[10], rel($a.free_blocks[10]; $b.free_blocks[10]), "rel", $tp],
      (range(8; 11) as $o | ["unusable_index_\($o)", $a.unusable_index[$o], $b.unusable_index[$o],
         ($b.unusable_index[$o] - $a.unusable_index[$o]), "abs", $tu]) )
  | [$lbl] + .;
(.windows[] | rows(.; "\(.from)-\(.to)")), rows(.last; "last")
| . as [$w, $m, $a, $b, $d, $k, $t]
| "\($w) \($zone) \($m) real=\($a) model=\($b) \(if $k == "rel" then "diff=\($d * 1000 | round / 10)%" else "diff=\($d * 1000 | round / 1000)" end) tol=\($t) \(if ($d | fabs) <= $t then "ok" else "FAIL" end)"
