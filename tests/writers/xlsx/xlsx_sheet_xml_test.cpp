#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <string>

#include "writers/xlsx/xlsx_package.h"
#include "writers/xlsx/xlsx_sheet_xml.h"
#include "table/table.h"

using namespace sollens;
using namespace sollens::cli;

namespace {

std::string sheet_xml(const Table& t, bool selected) {
  std::string xml;
  write_sheet_xml(t, selected, [&xml](std::string_view piece) { xml += piece; });
  return xml;
}

const std::string kHead =
    "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n"
    "<worksheet xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\" "
    "xmlns:r=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships\">";
const std::string kFrozenHeader =
    "workbookViewId=\"0\"><pane ySplit=\"1\" topLeftCell=\"A2\" activePane=\"bottomLeft\" state=\"frozen\"/>"
    "<selection pane=\"bottomLeft\"/></sheetView></sheetViews><sheetFormatPr defaultRowHeight=\"15\"/>";
const std::string kTail =
    "<pageMargins left=\"0.7\" right=\"0.7\" top=\"0.75\" bottom=\"0.75\" header=\"0.3\" footer=\"0.3\"/></worksheet>";

}  // namespace

TEST_CASE("xlsx worksheet: bold frozen header, inline strings, numbers as %.16G, booleans, empty nulls") {
  Table t("ops", TableKind::kSummary);
  Column& name = t.add_column("name", ColumnType::kString);
  Column& count = t.add_column("count", ColumnType::kInt);
  Column& ms = t.add_column("time ms", ColumnType::kFloat);
  Column& flag = t.add_column("modeled", ColumnType::kBool);
  name.push_string("aten::mm");
  count.push_int(3);
  ms.push_float(1078.2883791503906);  // 17 significant digits: the file keeps 16
  flag.push_bool(true);
  name.push_null();
  count.push_int(9007199254740993);  // 2^53 + 1: no double holds it, so it is text
  ms.push_float(1.5e-7);             // printf's %G: an upper-case exponent of two digits
  flag.push_bool(false);
  CHECK(sheet_xml(t, true) ==
        kHead + "<dimension ref=\"A1:D3\"/><sheetViews><sheetView tabSelected=\"1\" " + kFrozenHeader +
            "<sheetData><row r=\"1\">"
            "<c r=\"A1\" s=\"1\" t=\"inlineStr\"><is><t>name</t></is></c>"
            "<c r=\"B1\" s=\"1\" t=\"inlineStr\"><is><t>count</t></is></c>"
            "<c r=\"C1\" s=\"1\" t=\"inlineStr\"><is><t>time ms</t></is></c>"
            "<c r=\"D1\" s=\"1\" t=\"inlineStr\"><is><t>modeled</t></is></c></row>"
            "<row r=\"2\"><c r=\"A2\" t=\"inlineStr\"><is><t>aten::mm</t></is></c><c r=\"B2\"><v>3</v></c>"
            "<c r=\"C2\"><v>1078.288379150391</v></c><c r=\"D2\" t=\"b\"><v>1</v></c></row>"
            "<row r=\"3\"><c r=\"B3\" t=\"inlineStr\"><is><t>9007199254740993</t></is></c>"
            "<c r=\"C3\"><v>1.5E-07</v></c><c r=\"D3\" t=\"b\"><v>0</v></c></row>"
            "</sheetData>" + kTail);
}

TEST_CASE("xlsx worksheet: escaped text, kept white space, rows without a cell left out") {
  Table t("names", TableKind::kSummary);
  Column& name = t.add_column("", ColumnType::kString);  // an empty header is a bold blank cell
  Column& x = t.add_column("x", ColumnType::kFloat);
  name.push_string(" a&b<c>\"d\"");
  x.push_float(std::numeric_limits<double>::quiet_NaN());
  name.push_string("");  // an empty string is no cell, and NaN neither: no row 3
  x.push_float(std::numeric_limits<double>::infinity());
  name.push_string("tab\t");
  x.push_float(-0.0);
  CHECK(sheet_xml(t, false) ==
        kHead + "<dimension ref=\"A1:B4\"/><sheetViews><sheetView " + kFrozenHeader +
            "<sheetData><row r=\"1\"><c r=\"A1\" s=\"1\"/>"
            "<c r=\"B1\" s=\"1\" t=\"inlineStr\"><is><t>x</t></is></c></row>"
            "<row r=\"2\"><c r=\"A2\" t=\"inlineStr\"><is><t xml:space=\"preserve\"> a&amp;b&lt;c&gt;\"d\"</t></is></c></row>"
            "<row r=\"4\"><c r=\"A4\" t=\"inlineStr\"><is><t xml:space=\"preserve\">tab\t</t></is></c>"
            "<c r=\"B4\"><v>-0</v></c></row>"
            "</sheetData>" + kTail);
}

TEST_CASE("xlsx worksheet: the dimension is the last row with a cell; one column, no rows is A1") {
  Table one("one", TableKind::kSummary);
  one.add_column("only", ColumnType::kInt);
  CHECK(sheet_xml(one, false).find("<dimension ref=\"A1\"/>") != std::string::npos);

  Table trailing("trailing", TableKind::kSummary);
  Column& v = trailing.add_column("v", ColumnType::kFloat);
  v.push_float(2);
  v.push_null();
  CHECK(sheet_xml(trailing, false).find("<dimension ref=\"A1:A2\"/>") != std::string::npos);
}

TEST_CASE("xlsx cell text: control characters become U+FFFD, long text is cut on a UTF-8 boundary") {
  CHECK(xlsx_cell_text("a\x01" "b\x7f\tc\n") == "a\xEF\xBF\xBD" "b\xEF\xBF\xBD\tc\n");
  const std::string long_text = std::string(kXlsxMaxCellBytes - 1, 'k') + "\xC3\xA9\xC3\xA9";  // é é
  const std::string cut = xlsx_cell_text(long_text);
  CHECK(cut.size() == kXlsxMaxCellBytes + 1);  // the first é whole, the second left out
  CHECK(cut.substr(cut.size() - 2) == "\xC3\xA9");
}

TEST_CASE("xlsx column letters: A, Z, AA, AZ, BA, XFD (Excel's last)") {
  auto letters = [](size_t c) {
    std::string s;
    append_column_letters(s, c);
    return s;
  };
  CHECK(letters(0) == "A");
  CHECK(letters(25) == "Z");
  CHECK(letters(26) == "AA");
  CHECK(letters(51) == "AZ");
  CHECK(letters(52) == "BA");
  CHECK(letters(16383) == "XFD");
}

TEST_CASE("xlsx package: every worksheet in the content types and the workbook's relationships") {
  const auto parts = xlsx_package_parts({"gpu_timeline", "a&b"}, "2026-11-27T03:31:04Z");
  auto part = [&](const std::string& path) {
    for (const auto& [p, text] : parts)
      if (p == path) return text;
    return std::string();
  };
  const std::string types = part("[Content_Types].xml");
  CHECK(types.find("<Override PartName=\"/xl/worksheets/sheet1.xml\"") != std::string::npos);
  CHECK(types.find("<Override PartName=\"/xl/worksheets/sheet2.xml\"") != std::string::npos);
  const std::string rels = part("xl/_rels/workbook.xml.rels");
  CHECK(rels.find("Id=\"rId2\" Type=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships/"
                  "worksheet\" Target=\"worksheets/sheet2.xml\"") != std::string::npos);
  CHECK(rels.find("Id=\"rId3\" Type=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships/"
                  "styles\" Target=\"styles.xml\"") != std::string::npos);
  const std::string book = part("xl/workbook.xml");
  CHECK(book.find("<sheet name=\"a&amp;b\" sheetId=\"2\" r:id=\"rId2\"/>") != std::string::npos);
  CHECK(part("docProps/core.xml").find(">2026-11-27T03:31:04Z</dcterms:created>") != std::string::npos);
  CHECK(part("_rels/.rels").find("Target=\"xl/workbook.xml\"") != std::string::npos);
  CHECK(part("xl/styles.xml").find("<cellXfs count=\"2\">") != std::string::npos);
}

TEST_CASE("xlsx worksheet: a sheet past Excel's row limit stops at its last row, 1,048,576") {
  Table t("long", TableKind::kSummary);
  Column& v = t.add_column("v", ColumnType::kInt);
  for (size_t r = 0; r < kXlsxMaxRows + 4; ++r) v.push_int(static_cast<int64_t>(r));
  std::string tail;  // the end of the XML
  size_t rows = 0;
  write_sheet_xml(t, false, [&](std::string_view piece) {
    for (size_t at = piece.find("<row "); at != std::string_view::npos; at = piece.find("<row ", at + 1)) ++rows;
    tail.assign(piece.substr(piece.size() > 200 ? piece.size() - 200 : 0));
  });
  CHECK(rows == kXlsxMaxRows);  // the header and 1,048,575 values
  CHECK(tail.find("<row r=\"1048576\"><c r=\"A1048576\"><v>1048574</v></c></row></sheetData>") != std::string::npos);
}
