//! The `Array` methods of the element-wise ops declared with their semantics in the
//! [registry](crate::ops::registry) (`=> fn method<T: Bound>(...)`): one method per such
//! entry, named and bounded as the entry says and documented by the entry's documentation.
//! A unary op's method maps every element (`map_op`); a binary op's method takes the second
//! operand under the name of the entry's second scalar and broadcasts the two (`zip_op`).

use super::Array;
use crate::backend::ArrayBackend;
use crate::error::Result;

/// Defines the methods of the entries with `=> fn` of a registry list.
macro_rules! declared_methods {
    ($( $(#[$m:meta])* $ty:ident $(<$g:ident>)?, $name:literal, $kind:ident, $tol:ident
        $(, $params:ident)?
        $(=> fn $method:ident<$t:ident: $bound:ident>($($arg:ident),+) -> $out:ty $body:block)?;
    )*) => {
        $( declared_methods!(@one [$(#[$m])*] $ty, $name, $kind
            [$($method, $t, $bound, ($($arg),+), $out)?]); )*
    };
    (@one [$(#[$m:meta])*] $ty:ident, $name:literal, $kind:ident []) => {};
    (@one [$(#[$m:meta])*] $ty:ident, $name:literal, Unary
        [$method:ident, $t:ident, $bound:ident, ($x:ident), $out:ty]) => {
        impl<$t: $crate::dtype::$bound, B: ArrayBackend> Array<$t, B> {
            $(#[$m])*
            ///
            #[doc = concat!(
                "Element-wise, into a new C-contiguous array: NumPy's `", $name, "`, the op [`",
                stringify!($ty), "`](crate::ops::", stringify!($ty), ")."
            )]
            pub fn $method(&self) -> Result<Array<$out, B>> {
                self.map_op($crate::ops::$ty)
            }
        }
    };
    (@one [$(#[$m:meta])*] $ty:ident, $name:literal, Binary
        [$method:ident, $t:ident, $bound:ident, ($a:ident, $b:ident), $out:ty]) => {
        impl<$t: $crate::dtype::$bound, B: ArrayBackend> Array<$t, B> {
            $(#[$m])*
            ///
            #[doc = concat!(
                "Element-wise over `self` and `", stringify!($b), "` broadcast together ",
                "(NumPy's rules), into a new C-contiguous array: NumPy's `", $name,
                "`, the op [`", stringify!($ty), "`](crate::ops::", stringify!($ty), ")."
            )]
            ///
            /// # Errors
            /// [`Error::Broadcast`](crate::Error::Broadcast) for shapes that do not broadcast,
            /// [`Error::DeviceMismatch`](crate::Error::DeviceMismatch) for arrays on two
            /// devices.
            pub fn $method(&self, $b: &Self) -> Result<Array<$out, B>> {
                self.zip_op($crate::ops::$ty, $b)
            }
        }
    };
}

crate::elementwise_ops!(declared_methods);
