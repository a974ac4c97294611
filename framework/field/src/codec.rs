//! Canonical bytes of the values a relation's statements hold — inputs, outputs, chaining
//! states — so that a statement can be written into a proof file and read back by a verifier
//! that trusts nothing in the file.
//!
//! [`Codec::write`] appends a value's bytes; [`Codec::read`] takes them from the front of a
//! slice and fails (`None`) on too few bytes or a non-canonical encoding, never panicking and
//! never allocating more than the bytes it is given can hold. Every encoding is fixed by the
//! value's type, except a [`Vec`]'s, which leads with its length:
//!
//! | type | bytes |
//! |---|---|
//! | `u8`, `u16`, `u32`, `u64`, `u128` | little-endian |
//! | `bool` | one byte, `0` or `1` |
//! | `()` | none |
//! | `[T; N]`, tuples | the elements in order |
//! | `Vec<T>` | `u32` length, then the elements (a length past the bytes left is refused) |
//! | a field element ([`field_codec!`]) | [`Field::write_bytes`], [`Field::NUM_BYTES`] long |
//! | a struct of such fields ([`codec!`](macro@crate::codec)) | its fields in the order named |
//!
//! [`field_codec!`]: crate::field_codec
//! [`Field::write_bytes`]: crate::Field::write_bytes
//! [`Field::NUM_BYTES`]: crate::Field::NUM_BYTES
//!
//! A relation's own input type gets its codec from one line, `flockwork_field::codec!(MyInput
//! { key, counter, nonce });`.

use alloc::vec::Vec;

/// A byte buffer (what the macros name, so that `no_std` crates use them too).
pub type Bytes = Vec<u8>;

/// A value with canonical bytes (module docs).
pub trait Codec: Sized {
    /// Appends the value's bytes to `out`.
    fn write(&self, out: &mut Vec<u8>);

    /// Takes one value's bytes from the front of `input` (advancing it past them), or `None`
    /// if they are too few or not canonical (then `input`'s position is unspecified).
    fn read(input: &mut &[u8]) -> Option<Self>;

    /// The value's bytes.
    fn to_codec_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        self.write(&mut out);
        out
    }

    /// The value of exactly `bytes`: `None` for a short, non-canonical or longer encoding.
    fn from_codec_bytes(mut bytes: &[u8]) -> Option<Self> {
        let value = Self::read(&mut bytes)?;
        bytes.is_empty().then_some(value)
    }
}

/// Takes `n` bytes from the front of `input`.
#[must_use]
pub fn take<'a>(input: &mut &'a [u8], n: usize) -> Option<&'a [u8]> {
    if input.len() < n {
        return None;
    }
    let (head, tail) = input.split_at(n);
    *input = tail;
    Some(head)
}

macro_rules! uint_codec {
    ($($ty:ty),*) => {$(
        impl Codec for $ty {
            fn write(&self, out: &mut Vec<u8>) {
                out.extend_from_slice(&self.to_le_bytes());
            }

            fn read(input: &mut &[u8]) -> Option<Self> {
                let bytes = take(input, core::mem::size_of::<$ty>())?;
                Some(<$ty>::from_le_bytes(bytes.try_into().ok()?))
            }
        }
    )*};
}

uint_codec!(u8, u16, u32, u64, u128);

impl Codec for bool {
    fn write(&self, out: &mut Vec<u8>) {
        out.push(u8::from(*self));
    }

    fn read(input: &mut &[u8]) -> Option<Self> {
        match u8::read(input)? {
            0 => Some(false),
            1 => Some(true),
            _ => None,
        }
    }
}

impl Codec for () {
    fn write(&self, _: &mut Vec<u8>) {}

    fn read(_: &mut &[u8]) -> Option<Self> {
        Some(())
    }
}

impl<T: Codec, const N: usize> Codec for [T; N] {
    fn write(&self, out: &mut Vec<u8>) {
        for x in self {
            x.write(out);
        }
    }

    fn read(input: &mut &[u8]) -> Option<Self> {
        let mut items = Vec::with_capacity(N.min(input.len()));
        for _ in 0..N {
            items.push(T::read(input)?);
        }
        items.try_into().ok()
    }
}

impl<T: Codec> Codec for Vec<T> {
    fn write(&self, out: &mut Vec<u8>) {
        u32::try_from(self.len())
            .expect("a vector of at most 2^32 - 1 values")
            .write(out);
        for x in self {
            x.write(out);
        }
    }

    fn read(input: &mut &[u8]) -> Option<Self> {
        let len = usize::try_from(u32::read(input)?).ok()?;
        // Every element but a zero-sized one takes a byte, so a length past the bytes left is
        // refused before anything is allocated for it.
        if core::mem::size_of::<T>() > 0 && len > input.len() {
            return None;
        }
        let mut items = Vec::with_capacity(len.min(input.len()));
        for _ in 0..len {
            items.push(T::read(input)?);
        }
        Some(items)
    }
}

macro_rules! tuple_codec {
    ($($name:ident),+) => {
        impl<$($name: Codec),+> Codec for ($($name,)+) {
            #[allow(non_snake_case)]
            fn write(&self, out: &mut Vec<u8>) {
                let ($($name,)+) = self;
                $($name.write(out);)+
            }

            fn read(input: &mut &[u8]) -> Option<Self> {
                Some(($($name::read(input)?,)+))
            }
        }
    };
}

tuple_codec!(A);
tuple_codec!(A, B);
tuple_codec!(A, B, C);
tuple_codec!(A, B, C, D);

/// Implements [`Codec`] for field types by their canonical bytes
/// ([`Field::write_bytes`](crate::Field::write_bytes) and
/// [`Field::read_bytes`](crate::Field::read_bytes), which refuses a non-canonical encoding):
/// `field_codec!(Ghash128, Ghash256);` in the crate that defines them.
#[macro_export]
macro_rules! field_codec {
    ($($ty:ty),+ $(,)?) => {$(
        impl $crate::codec::Codec for $ty {
            fn write(&self, out: &mut $crate::codec::Bytes) {
                let start = out.len();
                out.resize(start + <$ty as $crate::Field>::NUM_BYTES, 0);
                $crate::Field::write_bytes(self, &mut out[start..]);
            }

            fn read(input: &mut &[u8]) -> ::core::option::Option<Self> {
                let bytes = $crate::codec::take(input, <$ty as $crate::Field>::NUM_BYTES)?;
                <$ty as $crate::Field>::read_bytes(bytes)
            }
        }
    )+};
}

/// Implements [`Codec`] for a struct whose fields all have one, writing the fields in the
/// order named (every field must be named once): `codec!(ChaChaInput { key, counter, nonce
/// });`.
#[macro_export]
macro_rules! codec {
    ($ty:ty { $($field:ident),+ $(,)? }) => {
        impl $crate::codec::Codec for $ty {
            fn write(&self, out: &mut $crate::codec::Bytes) {
                $($crate::codec::Codec::write(&self.$field, out);)+
            }

            fn read(input: &mut &[u8]) -> ::core::option::Option<Self> {
                ::core::option::Option::Some(Self {
                    $($field: $crate::codec::Codec::read(input)?,)+
                })
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    type Mixed = ([u32; 3], u64, Vec<u16>, (bool, ()));

    #[test]
    fn values_round_trip_and_refuse_short_or_bad_bytes() {
        let value: Mixed = ([1, 2, 3], 7, vec![9, 10], (true, ()));
        let bytes = value.to_codec_bytes();
        assert_eq!(bytes.len(), 12 + 8 + 4 + 4 + 1);
        assert_eq!(Mixed::from_codec_bytes(&bytes), Some(value.clone()));
        for cut in 0..bytes.len() {
            assert_eq!(Mixed::from_codec_bytes(&bytes[..cut]), None);
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert_eq!(Mixed::from_codec_bytes(&longer), None);
        let mut bad_bool = bytes;
        bad_bool[28] = 2;
        assert_eq!(Mixed::from_codec_bytes(&bad_bool), None);
    }

    #[test]
    fn a_vector_length_past_the_bytes_left_is_refused() {
        let mut bytes = Vec::new();
        u32::MAX.write(&mut bytes);
        bytes.extend_from_slice(&[0; 8]);
        assert_eq!(Vec::<u8>::from_codec_bytes(&bytes), None);
        assert_eq!(Vec::<u64>::from_codec_bytes(&bytes), None);
    }
}
