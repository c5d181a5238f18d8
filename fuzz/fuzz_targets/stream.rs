//! Streams for every provider (`schemacast::laws::check_stream_input`): raw
//! transcripts in arbitrary chunks never panic, read alike as text and parsed,
//! and give only valid answers;
//! answer texts cut anywhere end exactly as `decode` of the whole response,
//! with prefix-completion partials and early errors only before a failure.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Err(broken) = schemacast::laws::check_stream_input(data) {
        panic!("{broken}");
    }
});
