//! Checks of the CUDA DLPack module that need no GPU: the `stream` argument of the Python
//! protocol as a [`ConsumerStream`].

use super::ConsumerStream;

#[test]
fn the_protocol_stream_argument() {
    // SAFETY: no handle here reaches the driver.
    let parse = |s| unsafe { ConsumerStream::from_protocol(s) };
    assert_eq!(parse(None).unwrap(), ConsumerStream::Legacy);
    assert_eq!(parse(Some(-1)).unwrap(), ConsumerStream::NoSync);
    assert_eq!(parse(Some(1)).unwrap(), ConsumerStream::Legacy);
    assert_eq!(parse(Some(2)).unwrap(), ConsumerStream::PerThread);
    match parse(Some(0x7f00_1234)).unwrap() {
        ConsumerStream::Handle(h) => assert_eq!(h.get(), 0x7f00_1234),
        s => panic!("{s:?}"),
    }
    let e = parse(Some(0)).unwrap_err().to_string();
    assert!(e.starts_with("__dlpack__: stream 0 is ambiguous"), "{e}");
    let e = parse(Some(-5)).unwrap_err().to_string();
    assert!(e.contains("stream -5"), "{e}");
    assert_eq!(ConsumerStream::NoSync.raw(), None);
    assert_eq!(ConsumerStream::PerThread.raw().map(|p| p as usize), Some(2));
}
