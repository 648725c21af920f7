extension UInt8 {
    /// Whether the byte is an ASCII letter.
    var isASCIILetter: Bool { (0x41...0x5A).contains(self) || (0x61...0x7A).contains(self) }

    /// Whether the byte is an ASCII decimal digit.
    var isASCIIDigit: Bool { (0x30...0x39).contains(self) }

    /// Whether the byte is an ASCII hexadecimal digit.
    var isHexDigit: Bool { isASCIIDigit || (0x41...0x46).contains(self) || (0x61...0x66).contains(self) }
}
