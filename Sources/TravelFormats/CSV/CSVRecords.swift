/// RFC 4180 records: fields separated by commas, quoted with `"` (doubled inside quotes), quoted
/// fields may hold commas and line breaks; CRLF or LF; each record keeps the line it starts on.
package struct CSVRecords {
    package struct Record {
        package var line: Int
        package var fields: [String]
    }

    package static func parse(_ bytes: [UInt8]) -> [Record] {
        var records: [Record] = []
        var fields: [String] = []
        var field: [UInt8] = []
        var quoted = false
        var line = 1
        var recordLine = 1
        var index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        func endField() {
            fields.append(String(decoding: field, as: UTF8.self))
            field.removeAll(keepingCapacity: true)
        }
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if quoted {
                if byte == UInt8(ascii: "\"") {
                    if index < bytes.count, bytes[index] == UInt8(ascii: "\"") {
                        field.append(byte)
                        index += 1
                    } else {
                        quoted = false
                    }
                } else {
                    if byte == 0x0A { line += 1 }
                    field.append(byte)
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\"") where field.allSatisfy({ $0 == 0x20 }):
                field.removeAll()
                quoted = true
            case UInt8(ascii: ","):
                endField()
            case 0x0D:
                continue
            case 0x0A:
                endField()
                records.append(Record(line: recordLine, fields: fields))
                fields.removeAll()
                line += 1
                recordLine = line
            default:
                field.append(byte)
            }
        }
        if !field.isEmpty || !fields.isEmpty {
            endField()
            records.append(Record(line: recordLine, fields: fields))
        }
        return records
    }
}
