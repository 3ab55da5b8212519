;; The vector index's hottest loops in WebAssembly SIMD (quantized-index.ts). Compiled by
;; `npm run build:kernels` into vector-kernels-wasm.ts; a test checks the two agree.
;; Both read the index's memory, which the caller lays out and passes pointers into.
(module
  (import "env" "memory" (memory 1))

  ;; The Hamming distance of each of `count` 128-bit prefixes (16 bytes apart from `prefixes`)
  ;; to the query's (four 32-bit words), one byte each at `distances`, each also counted into
  ;; the 32-bit histogram at `histogram` (which the caller has cleared). With `bitsLength` > 0,
  ;; a filter: the vector at position p (rowid at `rowids` + 4p) is admitted when the byte at
  ;; `bits` + rowid is not 0, and one refused gets distance 255, past any real one (at most 128).
  (func (export "prefixDistances")
    (param $prefixes i32) (param $count i32) (param $distances i32) (param $histogram i32)
    (param $q0 i32) (param $q1 i32) (param $q2 i32) (param $q3 i32)
    (param $rowids i32) (param $bits i32) (param $bitsLength i32)
    (local $query v128) (local $sums v128) (local $p i32) (local $distance i32) (local $slot i32) (local $rowid i32) (local $admitted i32)
    (local.set $query
      (i32x4.replace_lane 3
        (i32x4.replace_lane 2
          (i32x4.replace_lane 1 (i32x4.splat (local.get $q0)) (local.get $q1))
          (local.get $q2))
        (local.get $q3)))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $p) (local.get $count)))
        (local.set $distance (i32.const 255))
        ;; Operands are all evaluated: the filter's byte is read only where it exists.
        (local.set $admitted (i32.const 1))
        (if (local.get $bitsLength)
          (then
            (local.set $rowid (i32.load (i32.add (local.get $rowids) (i32.shl (local.get $p) (i32.const 2)))))
            (local.set $admitted (i32.const 0))
            (if (i32.lt_u (local.get $rowid) (local.get $bitsLength))
              (then (local.set $admitted (i32.load8_u (i32.add (local.get $bits) (local.get $rowid))))))))
        (if (local.get $admitted)
          (then
            (local.set $sums
              (i32x4.extadd_pairwise_i16x8_u
                (i16x8.extadd_pairwise_i8x16_u
                  (i8x16.popcnt
                    (v128.xor
                      (v128.load (i32.add (local.get $prefixes) (i32.shl (local.get $p) (i32.const 4))))
                      (local.get $query))))))
            (local.set $distance
              (i32.add
                (i32.add (i32x4.extract_lane 0 (local.get $sums)) (i32x4.extract_lane 1 (local.get $sums)))
                (i32.add (i32x4.extract_lane 2 (local.get $sums)) (i32x4.extract_lane 3 (local.get $sums)))))))
        (i32.store8 (i32.add (local.get $distances) (local.get $p)) (local.get $distance))
        (local.set $slot (i32.add (local.get $histogram) (i32.shl (local.get $distance) (i32.const 2))))
        (i32.store (local.get $slot) (i32.add (i32.load (local.get $slot)) (i32.const 1)))
        (local.set $p (i32.add (local.get $p) (i32.const 1)))
        (br $next))))

  ;; The dot product of the query's signed bytes (at `query`) with those of each vector whose
  ;; position is listed at `positions` (`k` 32-bit positions; vector p starts at
  ;; `bytes` + p × `stride`, and `stride` is a multiple of 16), as 32-bit integers at `out`.
  (func (export "int8Dots")
    (param $bytes i32) (param $stride i32) (param $query i32) (param $positions i32) (param $k i32) (param $out i32)
    (local $i i32) (local $base i32) (local $j i32) (local $sum v128) (local $a v128) (local $b v128)
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $i) (local.get $k)))
        (local.set $base
          (i32.add
            (local.get $bytes)
            (i32.mul
              (i32.load (i32.add (local.get $positions) (i32.shl (local.get $i) (i32.const 2))))
              (local.get $stride))))
        (local.set $sum (v128.const i32x4 0 0 0 0))
        (local.set $j (i32.const 0))
        (block $row_done
          (loop $row
            (br_if $row_done (i32.ge_u (local.get $j) (local.get $stride)))
            (local.set $a (v128.load (i32.add (local.get $base) (local.get $j))))
            (local.set $b (v128.load (i32.add (local.get $query) (local.get $j))))
            ;; Byte products fit 16 bits (at most 128 × 128); pairs of them fit 32.
            (local.set $sum
              (i32x4.add
                (local.get $sum)
                (i32x4.add
                  (i32x4.extadd_pairwise_i16x8_s (i16x8.extmul_low_i8x16_s (local.get $a) (local.get $b)))
                  (i32x4.extadd_pairwise_i16x8_s (i16x8.extmul_high_i8x16_s (local.get $a) (local.get $b))))))
            (local.set $j (i32.add (local.get $j) (i32.const 16)))
            (br $row)))
        (i32.store
          (i32.add (local.get $out) (i32.shl (local.get $i) (i32.const 2)))
          (i32.add
            (i32.add (i32x4.extract_lane 0 (local.get $sum)) (i32x4.extract_lane 1 (local.get $sum)))
            (i32.add (i32x4.extract_lane 2 (local.get $sum)) (i32x4.extract_lane 3 (local.get $sum)))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $next))))

  ;; The binary code of each vector at positions `first` to `first` + `count` - 1 (vector p starts
  ;; at `bytes` + p × `stride`, and `stride` is a multiple of 16): bit i set when its signed byte
  ;; i is positive, 16 bits from each 16 bytes. Codes are `codeBytes` apart from `out` (at least
  ;; `stride` / 8; the rest of each is zeroed).
  (func (export "signCodes")
    (param $bytes i32) (param $stride i32) (param $first i32) (param $count i32) (param $out i32) (param $codeBytes i32)
    (local $i i32) (local $base i32) (local $code i32) (local $j i32)
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $i) (local.get $count)))
        (local.set $base (i32.add (local.get $bytes) (i32.mul (i32.add (local.get $first) (local.get $i)) (local.get $stride))))
        (local.set $code (i32.add (local.get $out) (i32.mul (local.get $i) (local.get $codeBytes))))
        (local.set $j (i32.const 0))
        (block $row_done
          (loop $row
            (br_if $row_done (i32.ge_u (local.get $j) (local.get $stride)))
            (i32.store16
              (i32.add (local.get $code) (i32.shr_u (local.get $j) (i32.const 3)))
              (i8x16.bitmask (i8x16.gt_s (v128.load (i32.add (local.get $base) (local.get $j))) (v128.const i32x4 0 0 0 0))))
            (local.set $j (i32.add (local.get $j) (i32.const 16)))
            (br $row)))
        ;; A code longer than the bytes' lanes (fewer than 32 dimensions in its last word) ends in 0.
        (block $tail_done
          (loop $tail
            (br_if $tail_done (i32.ge_u (i32.shr_u (local.get $j) (i32.const 3)) (local.get $codeBytes)))
            (i32.store16 (i32.add (local.get $code) (i32.shr_u (local.get $j) (i32.const 3))) (i32.const 0))
            (local.set $j (i32.add (local.get $j) (i32.const 16)))
            (br $tail)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $next))))
)
