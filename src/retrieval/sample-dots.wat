;; Per-store calibration's hottest loop in WebAssembly SIMD (sample-dots.ts): the query's dot
;; product with each member of the sample, summed exactly as store-calibration.ts's `dot` sums
;; it in JavaScript, so both give the same doubles to the last bit. Compiled by
;; `npm run build:kernels` into sample-dots-wasm.ts; a test checks the two agree.
(module
  (import "env" "memory" (memory 1))

  ;; For each of `count` vectors of float32 values `stride` apart from `vectors`, the dot product
  ;; of its first `n` values with the `n` at `query`, as a double at `out` + 8 × its position.
  ;; Each product is of two float32 values widened to doubles, added in doubles into four running
  ;; sums — terms 0, 4, 8, … into the first, 1, 5, 9, … into the second, and so on, the last
  ;; n mod 4 terms into the first — and the four sums added first to last. Two f64x2 lanes pairs
  ;; hold the four sums: a product's lane is its sum's.
  (func (export "sampleDots")
    (param $vectors i32) (param $count i32) (param $stride i32) (param $n i32) (param $query i32) (param $out i32)
    (local $v i32) (local $i i32) (local $base i32) (local $fours i32) (local $a v128) (local $b v128)
    (local $low v128) (local $high v128) (local $first f64)
    (local.set $fours (i32.and (local.get $n) (i32.const -4)))
    (block $done
      (loop $vector
        (br_if $done (i32.ge_u (local.get $v) (local.get $count)))
        (local.set $base (i32.add (local.get $vectors) (i32.shl (i32.mul (local.get $v) (local.get $stride)) (i32.const 2))))
        (local.set $low (f64x2.splat (f64.const 0)))
        (local.set $high (f64x2.splat (f64.const 0)))
        (local.set $i (i32.const 0))
        (block $foursDone
          (loop $four
            (br_if $foursDone (i32.ge_u (local.get $i) (local.get $fours)))
            (local.set $a (v128.load (i32.add (local.get $query) (i32.shl (local.get $i) (i32.const 2)))))
            (local.set $b (v128.load (i32.add (local.get $base) (i32.shl (local.get $i) (i32.const 2)))))
            ;; Terms i and i+1 into the first two sums, i+2 and i+3 (moved to the low half) into the last two.
            (local.set $low
              (f64x2.add (local.get $low)
                (f64x2.mul (f64x2.promote_low_f32x4 (local.get $a)) (f64x2.promote_low_f32x4 (local.get $b)))))
            (local.set $high
              (f64x2.add (local.get $high)
                (f64x2.mul
                  (f64x2.promote_low_f32x4 (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 (local.get $a) (local.get $a)))
                  (f64x2.promote_low_f32x4 (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 (local.get $b) (local.get $b))))))
            (local.set $i (i32.add (local.get $i) (i32.const 4)))
            (br $four)))
        (local.set $first (f64x2.extract_lane 0 (local.get $low)))
        (block $restDone
          (loop $rest
            (br_if $restDone (i32.ge_u (local.get $i) (local.get $n)))
            (local.set $first
              (f64.add (local.get $first)
                (f64.mul
                  (f64.promote_f32 (f32.load (i32.add (local.get $query) (i32.shl (local.get $i) (i32.const 2)))))
                  (f64.promote_f32 (f32.load (i32.add (local.get $base) (i32.shl (local.get $i) (i32.const 2))))))))
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (br $rest)))
        (f64.store (i32.add (local.get $out) (i32.shl (local.get $v) (i32.const 3)))
          (f64.add
            (f64.add
              (f64.add (local.get $first) (f64x2.extract_lane 1 (local.get $low)))
              (f64x2.extract_lane 0 (local.get $high)))
            (f64x2.extract_lane 1 (local.get $high))))
        (local.set $v (i32.add (local.get $v) (i32.const 1)))
        (br $vector))))
)
