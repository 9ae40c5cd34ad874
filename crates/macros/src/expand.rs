//! The two entry points' expansions: parse the closure of `elementwise!` or the function of
//! `#[kernel]`, check it, and emit the CPU function, the CUDA text and the kernel value.

use crate::check::check_kernel;
use crate::emit_cuda::device_function;
use crate::emit_rust::{ty_tokens, RustEmit};
use crate::ir::Kernel;
use crate::ty::Ty;
use proc_macro2::{Ident, Span, TokenStream};
use quote::{format_ident, quote};
use syn::spanned::Spanned;

/// A translated kernel: the checked form and its CUDA device function.
pub struct Translated {
    pub kernel: Kernel,
    pub cuda: String,
}

/// Parameters `(name, type, mutable)` from a closure's or function's inputs.
fn param(pat: &syn::Pat, ty: Option<&syn::Type>) -> syn::Result<(Ident, Ty, bool)> {
    let (pat, ty) = match (pat, ty) {
        (syn::Pat::Type(pt), None) => (&*pt.pat, &*pt.ty),
        (p, Some(t)) => (p, t),
        (p, None) => {
            return Err(syn::Error::new(
                p.span(),
                "every parameter of a cuprite kernel needs a type (`|x: f32| ...`)",
            ))
        }
    };
    let ty = Ty::parse(ty)?;
    match pat {
        syn::Pat::Ident(pi) if pi.by_ref.is_none() && pi.subpat.is_none() => {
            Ok((pi.ident.clone(), ty, pi.mutability.is_some()))
        }
        p => Err(syn::Error::new(
            p.span(),
            "a cuprite kernel's parameters are plain names (`x: f32` or `mut x: f32`)",
        )),
    }
}

fn output(r: &syn::ReturnType) -> syn::Result<Option<(Ty, Span)>> {
    match r {
        syn::ReturnType::Default => Ok(None),
        syn::ReturnType::Type(_, t) => Ok(Some((Ty::parse(t)?, t.span()))),
    }
}

/// Checks and translates a closure (`elementwise!`'s input).
pub fn translate_closure(c: &syn::ExprClosure) -> syn::Result<Translated> {
    if let Some(l) = &c.lifetimes {
        return Err(syn::Error::new(
            l.span(),
            "a cuprite kernel is a plain closure",
        ));
    }
    if c.constness.is_some() || c.movability.is_some() || c.asyncness.is_some() {
        return Err(syn::Error::new(
            c.span(),
            "a cuprite kernel is a plain closure (no `const`, `static`, `async`)",
        ));
    }
    let params = c
        .inputs
        .iter()
        .map(|p| param(p, None))
        .collect::<syn::Result<Vec<_>>>()?;
    let kernel = check_kernel(params, output(&c.output)?, &c.body, c.span())?;
    let cuda = device_function(&kernel);
    Ok(Translated { kernel, cuda })
}

/// Checks and translates a function (`#[kernel]`'s item).
pub fn translate_fn(f: &syn::ItemFn) -> syn::Result<Translated> {
    let s = &f.sig;
    if !s.generics.params.is_empty() || s.generics.where_clause.is_some() {
        return Err(syn::Error::new(
            s.generics.span(),
            "a cuprite kernel is not generic: write one kernel per element type",
        ));
    }
    if let Some(t) = s
        .constness
        .as_ref()
        .map(|t| t.span())
        .or(s.asyncness.as_ref().map(|t| t.span()))
        .or(s.unsafety.as_ref().map(|t| t.span()))
        .or(s.abi.as_ref().map(|t| t.span()))
        .or(s.variadic.as_ref().map(|t| t.span()))
    {
        return Err(syn::Error::new(
            t,
            "a cuprite kernel is a plain `fn` (no `const`, `async`, `unsafe`, `extern`, variadics)",
        ));
    }
    let params = s
        .inputs
        .iter()
        .map(|a| match a {
            syn::FnArg::Typed(pt) => param(&pt.pat, Some(&pt.ty)),
            syn::FnArg::Receiver(r) => Err(syn::Error::new(
                r.span(),
                "a cuprite kernel takes element values, not `self`",
            )),
        })
        .collect::<syn::Result<Vec<_>>>()?;
    let out = output(&s.output)?;
    if out.is_none() {
        return Err(syn::Error::new(
            s.span(),
            "a cuprite kernel returns one element value: add `-> f32` (or another element type)",
        ));
    }
    let body = syn::Expr::Block(syn::ExprBlock {
        attrs: Vec::new(),
        label: None,
        block: (*f.block).clone(),
    });
    let kernel = check_kernel(params, out, &body, s.ident.span())?;
    let cuda = device_function(&kernel);
    Ok(Translated { kernel, cuda })
}

/// The pieces both expansions share: the CPU function's signature and body, the kernel type.
struct Parts {
    params: Vec<TokenStream>,
    types: Vec<TokenStream>,
    out: TokenStream,
    body: TokenStream,
    map: Ident,
    cuda: String,
}

fn parts(t: &Translated, krate: &TokenStream) -> Parts {
    let k = &t.kernel;
    let params = k.vars[..k.params]
        .iter()
        .map(|v| {
            let name = &v.name;
            let ty = ty_tokens(k.ty(v.ty).expect("typed parameter"), krate);
            let m = v.mutable.then(|| quote!(mut));
            quote!(#m #name: #ty)
        })
        .collect();
    let types = k
        .inputs()
        .into_iter()
        .map(|t| ty_tokens(t, krate))
        .collect();
    Parts {
        params,
        types,
        out: ty_tokens(k.output, krate),
        body: RustEmit { k, krate }.body(),
        map: format_ident!("MapKernel{}", k.params),
        cuda: t.cuda.clone(),
    }
}

/// The lints the generated Rust would raise for the user's code (parentheses around every
/// operand, `mut` kept as written) are the translation's business, not the user's.
fn allow() -> TokenStream {
    quote!(#[allow(unused_mut, unused_parens, unused_braces, clippy::all)])
}

/// `elementwise!(|x: f32, ...| -> f32 { ... })`.
pub fn elementwise(input: TokenStream, krate: &TokenStream) -> syn::Result<TokenStream> {
    let c: syn::ExprClosure = syn::parse2(input).map_err(|e| {
        syn::Error::new(
            e.span(),
            format!("elementwise! takes a closure with typed parameters, e.g. `|x: f32, y: f32| -> f32 {{ x * y }}` ({e})"),
        )
    })?;
    let t = translate_closure(&c)?;
    let Parts {
        params,
        out,
        body,
        map,
        cuda,
        ..
    } = parts(&t, krate);
    let allow = allow();
    Ok(quote! {{
        #allow
        fn rk_cpu(#(#params),*) -> #out { #body }
        const SPEC: #krate::kernel::KernelSpec = #krate::kernel::KernelSpec::new("elementwise", #cuda);
        #krate::kernel::#map::new(SPEC, rk_cpu)
    }})
}

/// `#[kernel] fn name(x: f32, ...) -> f32 { ... }`.
pub fn kernel_attr(
    attr: TokenStream,
    item: TokenStream,
    krate: &TokenStream,
) -> syn::Result<TokenStream> {
    if !attr.is_empty() {
        return Err(syn::Error::new(
            attr.span(),
            "#[cuprite::kernel] takes no arguments",
        ));
    }
    let f: syn::ItemFn = syn::parse2(item)?;
    let t = translate_fn(&f)?;
    let Parts {
        params,
        types,
        out,
        body,
        map,
        cuda,
    } = parts(&t, krate);
    let name = &f.sig.ident;
    let vis = &f.vis;
    let attrs = &f.attrs;
    let name_str = name.to_string();
    let allow = allow();
    let mod_doc =
        format!("The array kernel of [`{name_str}`](fn@{name_str}): `{name_str}::kernel()`.");
    let kernel_doc = format!(
        "`{name_str}` as an array kernel: `{name_str}::kernel().call(...)` applies it to arrays \
         broadcast together, on any backend."
    );
    Ok(quote! {
        #[doc = #mod_doc]
        #vis mod #name {
            #(#attrs)*
            #allow
            pub fn #name(#(#params),*) -> #out { #body }

            #[doc = #kernel_doc]
            pub fn kernel() -> #krate::kernel::#map<#(#types,)* #out, impl Fn(#(#types),*) -> #out + Copy + Send + Sync + 'static> {
                const SPEC: #krate::kernel::KernelSpec = #krate::kernel::KernelSpec::new(#name_str, #cuda);
                #krate::kernel::#map::new(SPEC, #name)
            }
        }
        #vis use #name::#name;
    })
}
