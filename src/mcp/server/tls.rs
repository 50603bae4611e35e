//! TLS for the streamable HTTP endpoint: a rustls server configuration from a PEM
//! certificate chain and private key, read once when the server is bound.
//!
//! This module owns reading the files and the acceptor; it must not touch connections
//! (the listener performs the handshake, bounded by the header timeout).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use tokio_rustls::TlsAcceptor;

/// The certificate chain and private key files of a TLS listener (PEM).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TlsFiles {
    /// The certificate chain, leaf first.
    pub cert: PathBuf,
    /// The private key (PKCS#8, PKCS#1 or SEC1).
    pub key: PathBuf,
}

impl TlsFiles {
    /// The files at `cert` and `key`.
    pub fn new(cert: impl Into<PathBuf>, key: impl Into<PathBuf>) -> Self {
        TlsFiles {
            cert: cert.into(),
            key: key.into(),
        }
    }

    /// The acceptor, or why the files cannot serve (each message names the file).
    pub(crate) fn acceptor(&self) -> Result<TlsAcceptor, String> {
        let certs = read_certs(&self.cert)?;
        let key = PrivateKeyDer::from_pem_file(&self.key).map_err(|err| {
            format!(
                "cannot read a private key from {}: {err} (a PEM `PRIVATE KEY`, `RSA PRIVATE KEY` or `EC PRIVATE KEY` block)",
                self.key.display()
            )
        })?;
        // aws-lc-rs: rustls' default provider, with post-quantum key exchange preferred
        // (X25519MLKEM768 first).
        let provider = Arc::new(rustls::crypto::aws_lc_rs::default_provider());
        let config = rustls::ServerConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .map_err(|err| format!("TLS: {err}"))?
            .with_no_client_auth()
            .with_single_cert(certs, key)
            .map_err(|err| {
                format!(
                    "the certificate {} and the key {} do not serve together: {err}",
                    self.cert.display(),
                    self.key.display()
                )
            })?;
        Ok(TlsAcceptor::from(Arc::new(config)))
    }
}

fn read_certs(path: &Path) -> Result<Vec<CertificateDer<'static>>, String> {
    let certs = CertificateDer::pem_file_iter(path)
        .and_then(Iterator::collect::<Result<Vec<_>, _>>)
        .map_err(|err| format!("cannot read certificates from {}: {err}", path.display()))?;
    if certs.is_empty() {
        return Err(format!(
            "{} holds no PEM `CERTIFICATE` block",
            path.display()
        ));
    }
    Ok(certs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_and_empty_files_are_named() {
        let dir = tempfile::tempdir().unwrap();
        let empty = dir.path().join("empty.pem");
        std::fs::write(&empty, "").unwrap();
        let missing = TlsFiles::new(dir.path().join("nope.pem"), &empty)
            .acceptor()
            .err()
            .unwrap();
        assert!(missing.contains("nope.pem"), "{missing}");
        let no_cert = TlsFiles::new(&empty, &empty).acceptor().err().unwrap();
        assert!(no_cert.contains("no PEM `CERTIFICATE`"), "{no_cert}");
    }
}
