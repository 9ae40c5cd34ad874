//! NVRTC checks of generated fused programs (no GPU needed): every element type through every
//! kind of instruction and leaf, on the vector and the indexed loop. Run with
//! `LD_LIBRARY_PATH=<libnvrtc dir> cargo test -p cuprite-cuda --lib -- --ignored fused::`.

use super::codegen::{
    key, reduce_key, reduce_source, slot_count, source, Access, Reduction, Shape,
};
use crate::nvrtc::compile_check::assert_compiles;
use cuprite_core::fusion::lower::Instr;
use cuprite_core::{bf16, c128, c64, f16, DType, Element, Scalar};

/// `where(x > s, clip(x + y, 0, 1), cast(z))` on elements of `t`, with `x` contiguous, `y`
/// as `ya` and `z` (bool) as `za`.
fn program(t: DType) -> Vec<Instr> {
    let of = |v: f64| {
        let s = Scalar::F64(v);
        match t {
            DType::Bool => Scalar::Bool(v != 0.0),
            DType::I8 => Scalar::I8(i8::from_scalar(s)),
            DType::U8 => Scalar::U8(u8::from_scalar(s)),
            DType::I16 => Scalar::I16(i16::from_scalar(s)),
            DType::U16 => Scalar::U16(u16::from_scalar(s)),
            DType::I32 => Scalar::I32(i32::from_scalar(s)),
            DType::U32 => Scalar::U32(u32::from_scalar(s)),
            DType::I64 => Scalar::I64(i64::from_scalar(s)),
            DType::U64 => Scalar::U64(u64::from_scalar(s)),
            DType::F16 => Scalar::F16(f16::from_scalar(s)),
            DType::BF16 => Scalar::BF16(bf16::from_scalar(s)),
            DType::F32 => Scalar::F32(f32::from_scalar(s)),
            DType::F64 => s,
            DType::C64 => Scalar::C64(c64::from_scalar(s)),
            DType::C128 => Scalar::C128(c128::from_scalar(s)),
        }
    };
    let (zero, one) = (of(0.0), of(1.0));
    let real = !matches!(t, DType::C64 | DType::C128);
    let mut v = vec![
        Instr::Leaf { leaf: 0, dtype: t },
        Instr::Leaf { leaf: 1, dtype: t },
        Instr::Leaf {
            leaf: 2,
            dtype: DType::Bool,
        },
        Instr::Binary {
            op: "add",
            t,
            out: t,
            params: vec![],
            a: 0,
            b: 1,
        },
    ];
    if real {
        v.push(Instr::Unary {
            op: "clip",
            t,
            out: t,
            params: vec![zero, one],
            x: 3,
        });
    } else {
        v.push(Instr::Unary {
            op: "negative",
            t,
            out: t,
            params: vec![],
            x: 3,
        });
    }
    v.extend([
        Instr::Cast {
            from: DType::Bool,
            to: t,
            x: 2,
        },
        Instr::BinaryScalar {
            op: "equal",
            t,
            out: DType::Bool,
            params: vec![],
            x: 0,
            s: one,
            scalar_first: true,
        },
        Instr::Where {
            t,
            c: 6,
            a: 4,
            b: 5,
        },
        Instr::Scalar(one),
        Instr::Binary {
            op: "multiply",
            t,
            out: t,
            params: vec![],
            a: 7,
            b: 8,
        },
    ]);
    v
}

#[test]
fn keys_name_the_structure_not_the_values() {
    let p = program(DType::F32);
    let shape = |vw| Shape {
        instrs: &p,
        leaf_param: &[0, 1, 2],
        access: &[Access::Contig, Access::Uniform, Access::Contig],
        param_t: &[DType::F32, DType::F32, DType::Bool],
        out_strided: false,
        nd: 0,
        vw,
    };
    let k4 = key(&shape(4));
    assert_ne!(k4, key(&shape(1)));
    // A strided output is another program.
    let strided_out = Shape {
        out_strided: true,
        nd: 2,
        ..shape(1)
    };
    assert_ne!(key(&strided_out), key(&Shape { nd: 2, ..shape(1) }));
    let src = source(&strided_out);
    assert!(src.contains("out[o_0] = f(") && src.contains("long long st[2];"));
    // Other scalar values and clip bounds: the same program.
    let mut q = program(DType::F32);
    q[8] = Instr::Scalar(Scalar::F32(7.0));
    let same = Shape {
        instrs: &q,
        ..shape(4)
    };
    assert_eq!(key(&same), k4);
    // clip's two bounds and the scalars of `equal` and the literal: 5 + 1 + 1 slots.
    assert_eq!(slot_count(&p), 7);
    let src = source(&shape(4));
    assert!(src.contains("Bytes16 s[7];") && src.contains("fz_load<float, 4>"));
    assert!(!src.contains("long long st["));
}

#[test]
#[ignore = "needs libnvrtc: run with --ignored where it is installed"]
fn every_dtype_compiles_on_both_loops() {
    for t in DType::ALL {
        let p = program(t);
        let vw = 16 / t.size_of().max(1);
        let vector = Shape {
            instrs: &p,
            leaf_param: &[0, 1, 2],
            access: &[Access::Contig, Access::Uniform, Access::Contig],
            param_t: &[t, t, DType::Bool],
            out_strided: false,
            nd: 0,
            vw,
        };
        assert_compiles("fused.cu", &source(&vector));
        let indexed = Shape {
            instrs: &p,
            leaf_param: &[0, 1, 2],
            access: &[Access::Strided(0), Access::Contig, Access::Strided(1)],
            param_t: &[t, t, DType::Bool],
            out_strided: false,
            nd: 3,
            vw: 1,
        };
        let src = source(&indexed);
        assert!(src.contains("long long st[6];"), "{t}");
        assert_compiles("fused.cu", &src);
        // Written into a strided view: the output's offsets come first.
        let into_view = Shape {
            access: &[Access::Strided(1), Access::Contig, Access::Strided(2)],
            out_strided: true,
            ..indexed
        };
        let src = source(&into_view);
        assert!(
            src.contains("long long st[9];") && src.contains("out[o_0]"),
            "{t}"
        );
        assert_compiles("fused.cu", &src);
    }
}

/// Seventy instructions over ten uniform leaves: the generated names of instruction 64 and
/// leaf 8 would be the types `c64` and `u8` without their underscore (and `f16` names the
/// functor of instruction 16 where that is an op).
#[test]
#[ignore = "needs libnvrtc: run with --ignored where it is installed"]
fn long_programs_name_nothing_after_a_type() {
    let t = DType::F16;
    let mut p: Vec<Instr> = (0..10).map(|leaf| Instr::Leaf { leaf, dtype: t }).collect();
    while p.len() < 70 {
        let k = p.len();
        p.push(Instr::Scalar(Scalar::F16(f16::from_f32(0.5))));
        p.push(Instr::Binary {
            op: "multiply",
            t,
            out: t,
            params: vec![],
            a: k - 1,
            b: k,
        });
    }
    let leaf_param: Vec<usize> = (0..10).collect();
    let access = [Access::Uniform; 10];
    let shape = Shape {
        instrs: &p,
        leaf_param: &leaf_param,
        access: &access,
        param_t: &[t; 10],
        out_strided: false,
        nd: 0,
        vw: 8,
    };
    let src = source(&shape);
    assert!(src.contains("c_64") && src.contains("f_17") && src.contains("u_8"));
    assert_compiles("fused.cu", &src);
}

/// The reductions fused after an expression: every element type through the sums, the
/// extrema and `any`, on the twins of the row kernels and the column kernel, with and
/// without the word loads of the leaves, with and without a strided leaf.
#[test]
#[ignore = "needs libnvrtc: run with --ignored where it is installed"]
fn fused_reductions_compile_for_every_dtype() {
    use crate::reduce::FusedKernel;
    for t in DType::ALL {
        let p = program(t);
        for (name, out) in [("sum", t), ("max", t), ("any", DType::Bool)] {
            // Sums of the narrower integers and bool accumulate in a wider type.
            if (name == "sum" && !(t.is_float() || t.is_complex() || t == DType::I64))
                || (name == "max" && (t == DType::Bool || t.is_complex()))
            {
                continue;
            }
            let functor = format!("red_{name}");
            let wide = 16 / t.size_of();
            let cases = [
                (FusedKernel::Rows(32), 1, Access::Uniform, 0),
                (FusedKernel::Rows(256), wide, Access::Strided(0), 2),
                (FusedKernel::Cols, 1, Access::Strided(0), 2),
            ];
            for (kernel, vw, second, nd) in cases {
                let r = Reduction {
                    functor: &functor,
                    out,
                    kernel,
                };
                let shape = Shape {
                    instrs: &p,
                    leaf_param: &[0, 1, 2],
                    access: &[Access::Contig, second, Access::Contig],
                    param_t: &[t, t, DType::Bool],
                    out_strided: false,
                    nd,
                    vw,
                };
                let src = reduce_source(&shape, &r);
                assert!(
                    src.contains("fused_red(") && src.contains("red_partials_256"),
                    "{t} {name}"
                );
                assert_ne!(reduce_key(&shape, &r), key(&shape));
                assert_compiles("fused.cu", &src);
            }
        }
    }
}
