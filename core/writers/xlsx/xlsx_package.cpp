#include "writers/xlsx/xlsx_package.h"

#include "writers/xlsx/xlsx_sheet_xml.h"

namespace sollens::cli {

namespace {

constexpr const char* kXmlDeclaration = "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n";
constexpr const char* kOfficeRelationships = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
constexpr const char* kWorksheetType = "application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml";

std::string content_types(size_t sheets) {
  std::string x = kXmlDeclaration;
  x += "<Types xmlns=\"http://schemas.openxmlformats.org/package/2006/content-types\">"
       "<Default Extension=\"rels\" ContentType=\"application/vnd.openxmlformats-package.relationships+xml\"/>"
       "<Default Extension=\"xml\" ContentType=\"application/xml\"/>"
       "<Override PartName=\"/docProps/app.xml\" "
       "ContentType=\"application/vnd.openxmlformats-officedocument.extended-properties+xml\"/>"
       "<Override PartName=\"/docProps/core.xml\" "
       "ContentType=\"application/vnd.openxmlformats-package.core-properties+xml\"/>"
       "<Override PartName=\"/xl/styles.xml\" "
       "ContentType=\"application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml\"/>"
       "<Override PartName=\"/xl/workbook.xml\" "
       "ContentType=\"application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml\"/>";
  for (size_t i = 0; i < sheets; ++i)
    x += "<Override PartName=\"/" + xlsx_worksheet_path(i) + "\" ContentType=\"" + kWorksheetType + "\"/>";
  return x + "</Types>";
}

std::string package_relationships() {
  return std::string(kXmlDeclaration) +
         "<Relationships xmlns=\"http://schemas.openxmlformats.org/package/2006/relationships\">"
         "<Relationship Id=\"rId1\" Type=\"" + kOfficeRelationships + "/officeDocument\" Target=\"xl/workbook.xml\"/>"
         "<Relationship Id=\"rId2\" Type=\"http://schemas.openxmlformats.org/package/2006/relationships/metadata/"
         "core-properties\" Target=\"docProps/core.xml\"/>"
         "<Relationship Id=\"rId3\" Type=\"" + kOfficeRelationships + "/extended-properties\" Target=\"docProps/app.xml\"/>"
         "</Relationships>";
}

std::string workbook(const std::vector<std::string>& names) {
  std::string x = kXmlDeclaration;
  x += "<workbook xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\" xmlns:r=\"";
  x += kOfficeRelationships;
  x += "\"><bookViews><workbookView/></bookViews><sheets>";
  for (size_t i = 0; i < names.size(); ++i) {
    const std::string id = std::to_string(i + 1);
    x += "<sheet name=\"";
    append_xml_attribute(x, names[i]);
    x += "\" sheetId=\"" + id + "\" r:id=\"rId" + id + "\"/>";
  }
  return x + "</sheets></workbook>";
}

// Worksheets are rId1..rIdN, styles the one after.
std::string workbook_relationships(size_t sheets) {
  std::string x = kXmlDeclaration;
  x += "<Relationships xmlns=\"http://schemas.openxmlformats.org/package/2006/relationships\">";
  for (size_t i = 0; i < sheets; ++i)
    x += "<Relationship Id=\"rId" + std::to_string(i + 1) + "\" Type=\"" + kOfficeRelationships +
         "/worksheet\" Target=\"worksheets/sheet" + std::to_string(i + 1) + ".xml\"/>";
  x += "<Relationship Id=\"rId" + std::to_string(sheets + 1) + "\" Type=\"" + kOfficeRelationships +
       "/styles\" Target=\"styles.xml\"/>";
  return x + "</Relationships>";
}

// Cell style 0 is the normal font, 1 the bold of the header row.
std::string styles() {
  return std::string(kXmlDeclaration) +
         "<styleSheet xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\">"
         "<fonts count=\"2\"><font><sz val=\"11\"/><name val=\"Calibri\"/><family val=\"2\"/></font>"
         "<font><b/><sz val=\"11\"/><name val=\"Calibri\"/><family val=\"2\"/></font></fonts>"
         "<fills count=\"2\"><fill><patternFill patternType=\"none\"/></fill>"
         "<fill><patternFill patternType=\"gray125\"/></fill></fills>"
         "<borders count=\"1\"><border><left/><right/><top/><bottom/><diagonal/></border></borders>"
         "<cellStyleXfs count=\"1\"><xf numFmtId=\"0\" fontId=\"0\" fillId=\"0\" borderId=\"0\"/></cellStyleXfs>"
         "<cellXfs count=\"2\"><xf numFmtId=\"0\" fontId=\"0\" fillId=\"0\" borderId=\"0\" xfId=\"0\"/>"
         "<xf numFmtId=\"0\" fontId=\"1\" fillId=\"0\" borderId=\"0\" xfId=\"0\" applyFont=\"1\"/></cellXfs>"
         "<cellStyles count=\"1\"><cellStyle name=\"Normal\" xfId=\"0\" builtinId=\"0\"/></cellStyles>"
         "</styleSheet>";
}

std::string app_properties(const std::vector<std::string>& names) {
  std::string x = kXmlDeclaration;
  x += "<Properties xmlns=\"http://schemas.openxmlformats.org/officeDocument/2006/extended-properties\" "
       "xmlns:vt=\"http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes\">"
       "<Application>sollens</Application><HeadingPairs><vt:vector size=\"2\" baseType=\"variant\">"
       "<vt:variant><vt:lpstr>Worksheets</vt:lpstr></vt:variant><vt:variant><vt:i4>";
  x += std::to_string(names.size());
  x += "</vt:i4></vt:variant></vt:vector></HeadingPairs><TitlesOfParts><vt:vector size=\"";
  x += std::to_string(names.size());
  x += "\" baseType=\"lpstr\">";
  for (const std::string& name : names) {
    x += "<vt:lpstr>";
    append_xml_text(x, name);
    x += "</vt:lpstr>";
  }
  return x + "</vt:vector></TitlesOfParts></Properties>";
}

std::string core_properties(const std::string& created) {
  return std::string(kXmlDeclaration) +
         "<cp:coreProperties xmlns:cp=\"http://schemas.openxmlformats.org/package/2006/metadata/core-properties\" "
         "xmlns:dc=\"http://purl.org/dc/elements/1.1/\" xmlns:dcterms=\"http://purl.org/dc/terms/\" "
         "xmlns:dcmitype=\"http://purl.org/dc/dcmitype/\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\">"
         "<dcterms:created xsi:type=\"dcterms:W3CDTF\">" + created + "</dcterms:created>"
         "<dcterms:modified xsi:type=\"dcterms:W3CDTF\">" + created + "</dcterms:modified></cp:coreProperties>";
}

}  // namespace

std::string xlsx_worksheet_path(size_t index) { return "xl/worksheets/sheet" + std::to_string(index + 1) + ".xml"; }

std::vector<std::pair<std::string, std::string>> xlsx_package_parts(const std::vector<std::string>& sheet_names,
                                                                     const std::string& created) {
  return {{"xl/workbook.xml", workbook(sheet_names)},
          {"xl/_rels/workbook.xml.rels", workbook_relationships(sheet_names.size())},
          {"xl/styles.xml", styles()},
          {"docProps/app.xml", app_properties(sheet_names)},
          {"docProps/core.xml", core_properties(created)},
          {"_rels/.rels", package_relationships()},
          {"[Content_Types].xml", content_types(sheet_names.size())}};
}

}  // namespace sollens::cli
